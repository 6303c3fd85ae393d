package report

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"slices"
)

// jsonKeys is the order of the JSON output's fields; a field not listed
// comes after them, in the order the sections give it.
var jsonKeys = []string{"experiment", "partial", "warnings", "computed_by", "baseline", "alpha", "metrics",
	"selected_parameters", "setup", "per_class", "threshold_views", "tuning_edges", "tuning_searches", "conventions"}

// jsonOrder is the position of a field's key in jsonKeys (past its end
// when unlisted).
func jsonOrder(key string) int {
	if i := slices.Index(jsonKeys, key); i >= 0 {
		return i
	}
	return len(jsonKeys)
}

// sectionFields are the JSON fields of the sections shown in JSON.
func sectionFields(secs []section) []jsonField {
	var out []jsonField
	for _, s := range secs {
		if s.In.has(jsonFormat) {
			out = append(out, s.JSON...)
		}
	}
	return out
}

// writeJSONObject writes fields as one indented JSON object, in
// jsonKeys' order, as json.MarshalIndent writes a struct.
func writeJSONObject(w io.Writer, fields []jsonField) error {
	fields = slices.Clone(fields)
	slices.SortStableFunc(fields, func(a, b jsonField) int { return jsonOrder(a.Key) - jsonOrder(b.Key) })
	var b bytes.Buffer
	b.WriteString("{")
	for i, f := range fields {
		v, err := json.MarshalIndent(f.Value, "  ", "  ")
		if err != nil {
			return fmt.Errorf("json field %s: %w", f.Key, err)
		}
		k, _ := json.Marshal(f.Key)
		if i > 0 {
			b.WriteString(",")
		}
		b.WriteString("\n  ")
		b.Write(k)
		b.WriteString(": ")
		b.Write(v)
	}
	b.WriteString("\n}\n")
	_, err := w.Write(b.Bytes())
	return err
}
