package results

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strings"
)

// jsonError returns err, an error decoding the JSON document b, with the
// line and column where it arose ("line 3, column 5: ..."), for a syntax
// error, a value of the wrong type, an unknown field or a document cut
// short; err alone when the place is unknown.
func jsonError(b []byte, err error) error {
	offset := int64(-1)
	var syn *json.SyntaxError
	var typ *json.UnmarshalTypeError
	switch {
	case errors.As(err, &syn):
		offset = syn.Offset
	case errors.As(err, &typ):
		offset = typ.Offset
	case errors.Is(err, io.ErrUnexpectedEOF):
		offset = int64(len(b))
	default:
		// encoding/json names an unknown field without its place: the
		// first key so spelled.
		if name, ok := strings.CutPrefix(err.Error(), "json: unknown field "); ok {
			if i := bytes.Index(b, []byte(name)); i >= 0 {
				offset = int64(i)
			}
		}
	}
	if offset < 0 || offset > int64(len(b)) {
		return err
	}
	line := 1 + bytes.Count(b[:offset], []byte("\n"))
	col := int(offset) - bytes.LastIndexByte(b[:offset], '\n')
	if errors.Is(err, io.ErrUnexpectedEOF) {
		err = errors.New("unexpected end of file (the JSON document is cut short)")
	}
	return fmt.Errorf("line %d, column %d: %w", line, col, err)
}
