package kit

import "charm.land/lipgloss/v2"

// EditorStyles are the SQL editor's styles: syntax classes, the gutter,
// selection and search, the problem markers and the diff of two versions.
// They live beside Styles (which holds them as Styles.Editor) and follow
// the same palette.
type EditorStyles struct {
	Keyword  lipgloss.Style
	Type     lipgloss.Style // data types: BIGINT, DECIMAL, TIMESTAMP
	Function lipgloss.Style
	String   lipgloss.Style
	Number   lipgloss.Style
	Comment  lipgloss.Style
	Hint     lipgloss.Style // /*+ LOOKUP(…) */
	Quoted   lipgloss.Style // `back-quoted` names
	Operator lipgloss.Style
	Illegal  lipgloss.Style // what the lexer cannot read

	LineNumber  lipgloss.Style
	CurrentLine lipgloss.Style // the cursor's line number
	Gutter      lipgloss.Style // the │ after the line numbers
	Selection   lipgloss.Style
	Match       lipgloss.Style // a search match
	Cursor      lipgloss.Style
	ErrorMark   lipgloss.Style // ✖ in the gutter, the caret line
	WarnMark    lipgloss.Style // ⚠ in the gutter
	ErrorSpan   lipgloss.Style // the offending text itself
	WarnSpan    lipgloss.Style

	DiffAdd  lipgloss.Style
	DiffDel  lipgloss.Style
	DiffHunk lipgloss.Style

	// The completion popup: its rows, the chosen one, and the detail
	// (signature, type, default) beside each suggestion.
	Popup         lipgloss.Style
	PopupSelected lipgloss.Style
	PopupDetail   lipgloss.Style
}

func newEditorStyles(p palette) EditorStyles {
	s := lipgloss.NewStyle
	return EditorStyles{
		Keyword:  s().Foreground(p.blue).Bold(true),
		Type:     s().Foreground(p.cyan),
		Function: s().Foreground(p.brand),
		String:   s().Foreground(p.green),
		Number:   s().Foreground(p.yellow),
		Comment:  s().Foreground(p.dim).Italic(true),
		Hint:     s().Foreground(p.cyan).Italic(true),
		Quoted:   s(),
		Operator: s(),
		Illegal:  s().Foreground(p.red),

		LineNumber:  s().Foreground(p.dim),
		CurrentLine: s().Bold(true),
		Gutter:      s().Foreground(p.border),
		Selection:   s().Background(p.faintBg),
		Match:       s().Background(p.yellow).Foreground(lipgloss.Black),
		Cursor:      s().Reverse(true),
		ErrorMark:   s().Foreground(p.red).Bold(true),
		WarnMark:    s().Foreground(p.yellow),
		ErrorSpan:   s().Underline(true).Foreground(p.red),
		WarnSpan:    s().Underline(true).Foreground(p.yellow),

		DiffAdd:  s().Foreground(p.green),
		DiffDel:  s().Foreground(p.red),
		DiffHunk: s().Foreground(p.cyan),

		Popup:         s().Background(p.faintBg),
		PopupSelected: s().Background(p.brand).Foreground(lipgloss.Black).Bold(true),
		PopupDetail:   s().Background(p.faintBg).Foreground(p.dim),
	}
}
