"""Generated protocol stubs (make proto); do not edit."""
