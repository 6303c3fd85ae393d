package param

// ParamError is an error about one parameter. A plugin returns it (wrapped
// or joined with others, as it likes) from Fit, Plan or Decode, and the
// SDK sends the parameter's name with the error's status as a
// google.rpc.BadRequest field violation "params.NAME", so that the host
// locates the error at the parameter's attribute in the experiment file.
// Its message is Err's: say what is wrong in words, the name travels apart.
type ParamError struct {
	Param string
	Err   error
}

// Error returns Err's message.
func (e *ParamError) Error() string { return e.Err.Error() }

// Unwrap returns Err.
func (e *ParamError) Unwrap() error { return e.Err }

// WithParam blames parameter name for err; a nil err stays nil.
func WithParam(name string, err error) error {
	if err == nil {
		return nil
	}
	return &ParamError{Param: name, Err: err}
}
