package sdk

import "github.com/polyclass/polyclass/framework/sparse"

// DiabetesLike exports diabetesLike to the package's external tests.
func DiabetesLike() *sparse.CSR { return diabetesLike() }
