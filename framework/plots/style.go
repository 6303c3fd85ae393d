package plots

import (
	"image/color"
	"math"

	"gonum.org/v1/plot/vg/draw"
)

// tab10 is matplotlib's default colour cycle ("tab10", after Tableau 10),
// which a scikit-learn user's figures use.
var tab10 = []color.RGBA{
	{0x1f, 0x77, 0xb4, 0xff}, {0xff, 0x7f, 0x0e, 0xff}, {0x2c, 0xa0, 0x2c, 0xff}, {0xd6, 0x27, 0x28, 0xff},
	{0x94, 0x67, 0xbd, 0xff}, {0x8c, 0x56, 0x4b, 0xff}, {0xe3, 0x77, 0xc2, 0xff}, {0x7f, 0x7f, 0x7f, 0xff},
	{0xbc, 0xbd, 0x22, 0xff}, {0x17, 0xbe, 0xcf, 0xff},
}

// Colour returns the i-th colour of the figures' qualitative palette:
// tab10's ten, then further hues spaced by the golden angle, so that no
// two of the first hundreds are alike.
func Colour(i int) color.RGBA {
	if i < len(tab10) {
		return tab10[i]
	}
	h := math.Mod(float64(i-len(tab10))*137.50776405, 360)
	return hsv(h, 0.65, 0.8)
}

// hsv converts a hue in degrees, a saturation and a value in [0, 1] to RGB.
func hsv(h, s, v float64) color.RGBA {
	c := v * s
	x := c * (1 - math.Abs(math.Mod(h/60, 2)-1))
	var r, g, b float64
	switch {
	case h < 60:
		r, g = c, x
	case h < 120:
		r, g = x, c
	case h < 180:
		g, b = c, x
	case h < 240:
		g, b = x, c
	case h < 300:
		r, b = x, c
	default:
		r, b = c, x
	}
	m := v - c
	to := func(f float64) uint8 { return uint8(math.Round(255 * (f + m))) }
	return color.RGBA{to(r), to(g), to(b), 0xff}
}

// lighten mixes c with white: t = 0 keeps c, t = 1 gives white.
func lighten(c color.RGBA, t float64) color.RGBA {
	mix := func(a uint8) uint8 { return uint8(math.Round(float64(a) + t*(255-float64(a)))) }
	return color.RGBA{mix(c.R), mix(c.G), mix(c.B), 0xff}
}

// markers are the glyph shapes of Marker, filled ones first.
var markers = []draw.GlyphDrawer{
	draw.CircleGlyph{}, draw.PyramidGlyph{}, draw.BoxGlyph{}, draw.CrossGlyph{},
	draw.RingGlyph{}, draw.TriangleGlyph{}, draw.SquareGlyph{}, draw.PlusGlyph{},
}

// Marker returns the i-th marker shape; after the eight shapes they
// repeat.
func Marker(i int) draw.GlyphDrawer { return markers[i%len(markers)] }

// Markers is the number of distinct marker shapes.
const Markers = 8
