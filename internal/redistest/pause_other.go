//go:build !unix

package redistest

import "errors"

// Pause is not supported on this platform.
func (s *Server) Pause() error { return errors.ErrUnsupported }

// Resume is not supported on this platform.
func (s *Server) Resume() error { return errors.ErrUnsupported }
