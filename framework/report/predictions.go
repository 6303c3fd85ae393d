package report

import (
	"fmt"
	"io"
	"path"
	"slices"
	"strconv"
	"strings"

	"github.com/polyclass/polyclass/framework/outcome"
)

// HasPredictions reports whether any cell kept its per-row predictions.
func HasPredictions(cells []*outcome.CellResult) bool {
	for _, c := range cells {
		for _, f := range c.Folds {
			if f.Predictions != nil {
				return true
			}
		}
	}
	return false
}

// PredictionFiles returns one file per dataset with a cell that kept its
// predictions, predictions/DATASET.csv, in dataset order (see
// WritePredictionsCSV): each dataset's file has that dataset's own
// score_CLASS columns, so no column is empty for want of a class.
func PredictionFiles(cells []*outcome.CellResult) []File {
	var order []string
	byDataset := map[string][]*outcome.CellResult{}
	for _, c := range cells {
		if _, ok := byDataset[c.Dataset]; !ok {
			order = append(order, c.Dataset)
		}
		byDataset[c.Dataset] = append(byDataset[c.Dataset], c)
	}
	var files []File
	for _, ds := range order {
		dc := byDataset[ds]
		if !HasPredictions(dc) {
			continue
		}
		files = append(files, File{path.Join("predictions", fileSafe(ds)+".csv"), func(w io.Writer) error { return WritePredictionsCSV(w, dc) }})
	}
	return files
}

// WritePredictionsCSV writes the predictions of the cells of one dataset,
// one line per cell × test row: the cell's columns (dataset, encoder,
// learner, params, reduction), repeat, fold, row (0-based index of the data
// row in its file), true and predicted (class names; for multi-label rows
// the names of the set labels joined by ";"), then one score_CLASS column
// per class of the dataset, in class order, holding the class scores the
// metrics used (empty when the cell has no scores). Numbers are written in
// the shortest form that reads back exactly, so every metric can be
// recomputed from the file. Cells without predictions are left out; cells
// of another dataset, or with other classes, are an error.
func WritePredictionsCSV(w io.Writer, cells []*outcome.CellResult) error {
	if len(cells) == 0 {
		return nil
	}
	classes := cells[0].Classes
	for _, c := range cells[1:] {
		if c.Dataset != cells[0].Dataset || !slices.Equal(c.Classes, classes) {
			return fmt.Errorf("predictions of %s: dataset %q with classes %v, not %q with %v", c.Key(), c.Dataset, c.Classes, cells[0].Dataset, classes)
		}
	}
	cw := newCSV(w)
	head := append(append([]string{}, idHeader...), "repeat", "fold", "row", "true", "predicted")
	for _, k := range classes {
		head = append(head, "score_"+k)
	}
	cw.Write(head)
	rec := make([]string, len(head))
	base := len(head) - len(classes)
	for _, c := range cells {
		for _, f := range c.Folds {
			p := f.Predictions
			if p == nil {
				continue
			}
			for i, row := range p.Rows {
				clear(rec)
				copy(rec, idFields(c.ID))
				rec[5], rec[6], rec[7] = strconv.Itoa(f.Repeat), strconv.Itoa(f.Fold), strconv.Itoa(row)
				var err error
				if p.TrueSet != nil {
					rec[8], err = setNames(c.Classes, p.TrueSet.RawRowView(i))
					if err == nil {
						rec[9], err = setNames(c.Classes, p.PredSet.RawRowView(i))
					}
				} else {
					rec[8], err = className(c.Classes, p.True[i])
					if err == nil {
						rec[9], err = className(c.Classes, p.Predicted[i])
					}
				}
				if err != nil {
					return fmt.Errorf("predictions of %s, repeat %d fold %d: %w", c.Key(), f.Repeat, f.Fold, err)
				}
				if p.Scores != nil {
					for j, v := range p.Scores.RawRowView(i) {
						if j < len(classes) {
							rec[base+j] = num(v)
						}
					}
				}
				cw.Write(rec)
			}
		}
	}
	cw.Flush()
	return cw.Error()
}

func className(classes []string, k int) (string, error) {
	if k < 0 || k >= len(classes) {
		return "", fmt.Errorf("class index %d outside [0, %d)", k, len(classes))
	}
	return classes[k], nil
}

func setNames(classes []string, row []float64) (string, error) {
	if len(row) != len(classes) {
		return "", fmt.Errorf("%d labels for %d classes", len(row), len(classes))
	}
	var names []string
	for j, v := range row {
		if v != 0 {
			names = append(names, classes[j])
		}
	}
	return strings.Join(names, ";"), nil
}
