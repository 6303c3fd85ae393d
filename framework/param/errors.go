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

// Blamed returns the parameters err blames: those of the ParamErrors in
// its chain and in the errors it joins, in order, without repeats.
func Blamed(err error) []string {
	var out []string
	var walk func(error)
	walk = func(e error) {
		switch x := e.(type) {
		case nil:
		case *ParamError:
			for _, o := range out {
				if o == x.Param {
					return
				}
			}
			out = append(out, x.Param)
		case interface{ Unwrap() []error }:
			for _, c := range x.Unwrap() {
				walk(c)
			}
		case interface{ Unwrap() error }:
			walk(x.Unwrap())
		}
	}
	walk(err)
	return out
}
