package plots

import (
	"regexp"
	"strings"
	"testing"

	"gonum.org/v1/plot/font"
	"gonum.org/v1/plot/vg"
	vgdraw "gonum.org/v1/plot/vg/draw"
	"gonum.org/v1/plot/vg/vgimg"
)

// drawn is one string a figure drew: its text, font and where it starts
// and ends across the figure.
type drawn struct {
	Text        string
	Font        font.Face
	Left, Right vg.Length
}

// textRecorder is a canvas that records the strings drawn on it.
type textRecorder struct {
	*vgimg.Canvas
	texts []drawn
}

func (r *textRecorder) FillString(f font.Face, pt vg.Point, s string) {
	r.texts = append(r.texts, drawn{Text: s, Font: f, Left: pt.X, Right: pt.X + f.Width(s)})
	r.Canvas.FillString(f, pt, s)
}

// share is a heat-map cell's share ("0.75", "<.01"), which may be drawn
// in the title's font.
var share = regexp.MustCompile(`^(<\.01|[0-9.]+)$`)

// titleLines draws f and returns the lines of its title: the strings in
// the title's font, bold size points, in the order drawn, but for shares.
func titleLines(f *Figure, size vg.Length) []drawn {
	r := &textRecorder{Canvas: vgimg.New(f.Width, f.Height)}
	f.draw(vgdraw.New(r))
	var out []drawn
	for _, d := range r.texts {
		if d.Font.Font.Size == size && d.Font.Font.Weight == sans(size, true).Font.Weight && !share.MatchString(d.Text) {
			out = append(out, d)
		}
	}
	return out
}

// TestTitlesNeverCut draws the Bayesian figures, the confusion heat map,
// the critical-difference diagram and the box plots with a short title and with titles far wider than the figure (long
// labels, and one word longer than the figure): every letter of the title
// is drawn, in lines inside the figure's width, and a longer title makes
// the figure taller, not the plot smaller.
func TestTitlesNeverCut(t *testing.T) {
	const (
		short = "accuracy: logreg C=1 vs svm"
		long  = "macro_f1: logreg C=0.01 random_dense decoded by exponential loss vs logreg C=1 ova (baseline) on vehicle_silhouettes_of_four_cars"
		word  = "a_single_word_longer_than_any_figure_is_wide_so_that_it_must_break_between_its_letters_somewhere_along_the_way"
	)
	p := Probabilities{Left: 0.2, Rope: 0.5, Right: 0.3}
	samples := [][3]float64{{0.2, 0.5, 0.3}, {0.1, 0.8, 0.1}}
	type figure func(title string) (*Figure, error)
	figures := map[string]struct {
		draw figure
		size vg.Length // of the title
	}{
		"posterior density": {func(title string) (*Figure, error) {
			return PosteriorDensity(title, "difference in accuracy", "logreg", "svm", 0.01, 0.02, 4, 0.01, p)
		}, 11},
		"simplex": {func(title string) (*Figure, error) { return Simplex(title, "logreg", "svm", samples, p) }, 11},
		"confusion heat map": {func(title string) (*Figure, error) {
			return ConfusionHeatMap(title, []string{"a", "b"}, [][]int{{3, 1}, {0, 4}})
		}, 11},
		"critical difference": {func(title string) (*Figure, error) {
			return CriticalDifference(title, []string{"logreg", "svm"}, []float64{1.25, 1.75}, 1.2)
		}, 11},
		"box plots": {func(title string) (*Figure, error) {
			return BoxPlots(title, "accuracy", []string{"iris"}, []BoxRow{{Label: "logreg", Learner: "logreg", Reduction: "ova"}},
				[][][]float64{{{0.9, 0.95, 0.93}}})
		}, 12},
	}
	for name, tf := range figures {
		fig := tf.draw
		base, err := fig(short)
		if err != nil {
			t.Fatal(err)
		}
		for _, tc := range []struct {
			name, title string
			lines       int // at least
		}{
			{"short", short, 1},
			{"long labels", long, 2},
			{"one long word", word, 2},
		} {
			t.Run(name+"/"+tc.name, func(t *testing.T) {
				f, err := fig(tc.title)
				if err != nil {
					t.Fatal(err)
				}
				lines := titleLines(f, tf.size)
				var texts []string
				for _, l := range lines {
					texts = append(texts, l.Text)
					if l.Left < 0 || l.Right > f.Width {
						t.Errorf("title line %q spans %v to %v of a figure %v wide", l.Text, l.Left, l.Right, f.Width)
					}
				}
				if len(lines) < tc.lines {
					t.Errorf("title in %d lines %q, want at least %d", len(lines), texts, tc.lines)
				}
				got := strings.Join(texts, " ")
				if tc.title == word {
					got = strings.Join(texts, "")
				}
				if got != tc.title {
					t.Errorf("title drawn as %q, want %q whole", texts, tc.title)
				}
				if extra := vg.Length(len(lines)-1) * lineHeight(sans(tf.size, true)); f.Height < base.Height+extra {
					t.Errorf("%d-line title: figure %v high, one-line %v: want %v more", len(lines), f.Height, base.Height, extra)
				}
			})
		}
	}
}

// TestWrapText: lines break between words where they can, inside a word
// where one is wider than the width, and never drop a letter.
func TestWrapText(t *testing.T) {
	s := sans(11, true)
	w := s.Width("0123456789") // digits are all alike wide; a space is half a digit

	for _, tc := range []struct {
		name, text string
		want       []string
	}{
		{"fits", "abc def", []string{"abc def"}},
		{"empty", "  ", nil},
		{"two lines", "01234 56789 012", []string{"01234", "56789 012"}},
		{"long word", "0123456789012345678901 2", []string{"0123456789", "0123456789", "01 2"}},
		{"spaces collapse", " ab   cd ", []string{"ab cd"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got := wrapText(s, tc.text, w)
			if strings.Join(got, "|") != strings.Join(tc.want, "|") {
				t.Errorf("wrapText(%q) = %q, want %q", tc.text, got, tc.want)
			}
			for _, l := range got {
				if s.Width(l) > w {
					t.Errorf("line %q is %v wide, more than %v", l, s.Width(l), w)
				}
			}
		})
	}
}
