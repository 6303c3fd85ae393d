package report

// The report's views build sections of this model, and one writer per
// format renders them (section_md.go, section_html.go, section_tex.go,
// section_json.go): a view is one file that turns the tables into
// sections, as benchstat's formats render its one table model.
//
// Each format shows a section its own way: Markdown as "## Title" and its
// blocks; HTML as <section id=ID> with an <h2>; LaTeX sets the tables as
// floats (the title a comment before the first, the paragraphs comments
// for the author, not the paper); JSON writes the section's fields, the
// data the view shows, in full.

// format names an output format a section or a block is written in.
type format uint8

const (
	mdFormat format = 1 << iota
	htmlFormat
	texFormat
	jsonFormat
)

// formats is a set of formats; the zero set means every format.
type formats uint8

// has reports whether f is one of fs (every format when fs is zero).
func (fs formats) has(f format) bool { return fs == 0 || uint8(fs)&uint8(f) != 0 }

// only is the set of the formats given.
func only(fs ...format) formats {
	var s formats
	for _, f := range fs {
		s |= formats(f)
	}
	return s
}

// section is one view of a report: a titled part with its blocks, and
// what the JSON output holds of it.
type section struct {
	// ID is the HTML section's id; Title its heading (Markdown's "##",
	// HTML's h2, a LaTeX comment before its first table), Aside said after
	// it in parentheses (small in HTML).
	ID, Title, Aside string
	// Class and Data are the HTML section's class and data- attributes.
	Class string
	Data  []dataAttr
	// Nav is the text of the section's link in the HTML report's
	// navigation (empty: its Title). Every section the HTML report shows
	// has a link there (writeHTMLNav), so a new view cannot lack one.
	Nav string
	// In says which formats show it (zero: every format).
	In formats
	// Blocks are its contents, in order.
	Blocks []block
	// JSON are the fields the view adds to the JSON output's object.
	JSON []jsonField
}

// block is a part of a section: a para, a heading, a table, a list, a
// banner, or HTML's own markup and figures.
type block interface{ in(format) bool }

// para is a paragraph; HTML gives it Class, LaTeX writes it as a comment.
type para struct {
	Text  text
	Class string
	In    formats
}

func (p para) in(f format) bool { return p.In.has(f) }

// heading is a heading within a section: Level 3 is Markdown's "###" and
// HTML's h3.
type heading struct {
	Level int
	Text  text
	In    formats
	// ID is the HTML heading's id (empty: none).
	ID string
}

func (h heading) in(f format) bool { return h.In.has(f) }

// table is a table: its columns, its rows of cells and, in LaTeX, its
// float's caption (after the experiment's name) and label (after the
// experiment's).
type table struct {
	Columns []column
	Rows    []tableRow
	// ID and Class are the HTML table's attributes (empty: none).
	ID, Class string
	// Fold, when set, folds the HTML table in a details element of class
	// "report" with this summary, instead of a box that scrolls; Data are
	// the details' data- attributes, else the table's.
	Fold text
	Data []dataAttr
	// Caption and Label are the LaTeX float's.
	Caption text
	Label   string
	// Notes are set under a LaTeX table, in its float (the other formats
	// have them as paragraphs after it).
	Notes []text
	In    formats
}

func (t table) in(f format) bool { return t.In.has(f) }

// column is a column of a table: its head, whether it holds numbers
// (aligned right), and the HTML class of its cells (wrap, digest).
type column struct {
	Head  text
	Num   bool
	Class string
	// Sort is the HTML head's data-sort: how a click on it sorts the
	// rows ("num", "text"); empty: it does not.
	Sort string
}

// tableRow is a row of a table; Label is the HTML row's data-label (the
// row filter's text) and Class its class, empty for none.
type tableRow struct {
	Label, Class string
	Cells        []cell
}

// cell is a table's cell: its text and, in HTML, its class beyond its
// column's (best, failed) and its data- attributes (what the script
// reads).
type cell struct {
	Text  text
	Class string
	Data  []dataAttr
}

// list is a bulleted list, one item a line.
type list struct {
	Items []text
	In    formats
}

func (l list) in(f format) bool { return l.In.has(f) }

// htmlBlock is markup written as it is into the HTML output only (a
// panel its script draws).
type htmlBlock string

func (htmlBlock) in(f format) bool { return f == htmlFormat }

// figureGrid is figures in a grid of equal-width columns (Class names
// the grid), in the HTML output only.
type figureGrid struct {
	Class string
	Figs  []Figure
	// Fold, when set, folds the grid in a details element of class
	// "report" with this summary, closed, so that many figures do not
	// push what follows them pages down.
	Fold text
}

func (figureGrid) in(f format) bool { return f == htmlFormat }

// banner is a notice in a div of class Class with id ID, a list of Items
// under its text (none: no list); in the HTML output only (the report's
// head, head.go).
type banner struct {
	ID, Class string
	Text      text
	Items     []text
}

func (banner) in(f format) bool { return f == htmlFormat }

// dataAttr is an HTML data- attribute: data-Name="Value".
type dataAttr struct{ Name, Value string }

// text is a run of spans, each escaped and marked up by the format.
type text []span

// span is a piece of text: plain (escaped by the format), bold, a
// subscript, raw markup written as it is (in a block of one format), or
// markup of each format (Alt: Markdown, HTML, LaTeX), for marks whose
// form differs between the formats.
type span struct {
	S     string
	Style style
	Alt   []string
}

// style is how a span is set.
type style uint8

const (
	plain style = iota
	bold
	sub
	raw
	perFormat
)

// alt is a span of each format's markup.
func alt(md, html, tex string) span { return span{Style: perFormat, Alt: []string{md, html, tex}} }

// txt is the text of plain strings.
func txt(s ...string) text {
	t := make(text, len(s))
	for i, x := range s {
		t[i] = span{S: x}
	}
	return t
}

// strong is s in bold.
func strong(s string) span { return span{S: s, Style: bold} }

// jsonField is a field of the JSON output's object.
type jsonField struct {
	Key   string
	Value any
}

// cellsOf are the cells of plain strings, one each.
func cellsOf(s ...string) []cell {
	out := make([]cell, len(s))
	for i, x := range s {
		out[i] = cell{Text: txt(x)}
	}
	return out
}

// title is the section's title with its aside in parentheses.
func (s section) title() string {
	if s.Aside == "" {
		return s.Title
	}
	return s.Title + " (" + s.Aside + ")"
}
