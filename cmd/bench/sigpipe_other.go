//go:build !unix

package main

// brokenPipe: no SIGPIPE outside Unix.
func brokenPipe(int) bool { return false }
