// Package convert turns the Go forms of the plugin contract into protocol
// messages and back: the conversions both the SDK's servers and the host's
// clients need, one file per message group (parameters, matrices and
// datasets, problems and code matrices, Info, plans).
package convert
