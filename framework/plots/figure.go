// Package plots draws the figures of a run report with gonum/plot: the
// critical-difference diagram of Demšar (2006), box plots of fold scores
// and confusion-matrix heat maps. Every figure renders to PNG and SVG with
// the Liberation fonts bundled with gonum/plot, so the output does not depend
// on the fonts installed on the machine.
package plots

import (
	"bytes"
	"fmt"
	"image/color"
	"io"
	"os"

	xfont "golang.org/x/image/font"
	"gonum.org/v1/plot"
	"gonum.org/v1/plot/font"
	"gonum.org/v1/plot/text"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
	"gonum.org/v1/plot/vg/vgimg"
	"gonum.org/v1/plot/vg/vgsvg"
)

// DefaultDPI is the resolution of PNG output: twice the 96 dpi of a screen,
// so that the images stay sharp when shown at their nominal size.
const DefaultDPI = 192

// Figure is a drawing of a fixed size that can be written as PNG or SVG.
type Figure struct {
	// Width and Height are the nominal size of the figure.
	Width, Height vg.Length
	draw          func(c draw.Canvas)
}

// WritePNG writes the figure as a PNG image at dpi dots per inch
// (DefaultDPI when dpi ≤ 0) on a white background.
func (f *Figure) WritePNG(w io.Writer, dpi int) error {
	if dpi <= 0 {
		dpi = DefaultDPI
	}
	c := vgimg.NewWith(vgimg.UseWH(f.Width, f.Height), vgimg.UseDPI(dpi), vgimg.UseBackgroundColor(color.White))
	f.draw(draw.New(c))
	if _, err := (vgimg.PngCanvas{Canvas: c}).WriteTo(w); err != nil {
		return fmt.Errorf("png: %w", err)
	}
	return nil
}

// WriteSVG writes the figure as SVG. Fonts are referred to by name
// (Liberation Sans), not embedded.
func (f *Figure) WriteSVG(w io.Writer) error {
	c := vgsvg.New(f.Width, f.Height)
	dc := draw.New(c)
	dc.SetColor(color.White)
	dc.Fill(dc.Rectangle.Path())
	f.draw(dc)
	if _, err := c.WriteTo(w); err != nil {
		return fmt.Errorf("svg: %w", err)
	}
	return nil
}

// PNG returns the figure as PNG bytes at DefaultDPI.
func (f *Figure) PNG() ([]byte, error) {
	var b bytes.Buffer
	err := f.WritePNG(&b, DefaultDPI)
	return b.Bytes(), err
}

// Save writes base+".png" and base+".svg" and returns their paths.
func (f *Figure) Save(base string) ([]string, error) {
	var written []string
	for _, ext := range []string{".png", ".svg"} {
		path := base + ext
		out, err := os.Create(path)
		if err != nil {
			return written, fmt.Errorf("figure: %w", err)
		}
		if ext == ".png" {
			err = f.WritePNG(out, DefaultDPI)
		} else {
			err = f.WriteSVG(out)
		}
		if cerr := out.Close(); err == nil {
			err = cerr
		}
		if err != nil {
			return written, fmt.Errorf("figure %s: %w", path, err)
		}
		written = append(written, path)
	}
	return written, nil
}

// sans returns a text style in Liberation Sans.
func sans(size vg.Length, bold bool) text.Style {
	f := font.Font{Typeface: "Liberation", Variant: "Sans", Size: size}
	if bold {
		f.Weight = xfont.WeightBold
	}
	return text.Style{Color: color.Black, Font: f, Handler: plot.DefaultTextHandler}
}

// line returns a solid line style.
func line(width vg.Length, c color.Color) draw.LineStyle {
	return draw.LineStyle{Color: c, Width: width}
}
