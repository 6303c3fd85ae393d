// Package plugin is the contract between polyclass and its plugins: the
// types and interfaces a learner (Learner, Model and their optional
// interfaces) and a reducer (Reducer) implement, and the values the host
// sends and receives through them (FitInput, PlanRequest, Plan,
// DecodeRequest, Decoding, LearnerInfo, ReducerInfo, ...).
//
// It imports only the standard library, gonum and the vocabulary packages
// below it (param, problem, matrix, software: no RPC machinery), so that
// either side of the connection builds on it without the other: package
// sdk serves a plugin's implementation of it over gRPC (its server lives
// in framework/internal/server), package host calls a plugin through it,
// and framework/internal/convert turns its values into the protocol's
// messages and back. Plugin authors keep importing sdk alone, which
// re-exports every name here.
package plugin
