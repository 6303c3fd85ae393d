"""A module that raises KeyboardInterrupt when imported."""

raise KeyboardInterrupt
