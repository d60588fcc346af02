package kit

import tea "charm.land/bubbletea/v2"

// Loading is where a list view's loads stand: whether one has brought its
// rows yet, and the last one's error. A failed reload keeps the rows
// shown (the flash line says it failed); a failed first load shows the
// error in their place.
type Loading struct {
	Loaded bool
	Err    error
}

// Take records a load's outcome under its flash key: keep is true when
// the load brought rows to show; flash shows its error, or takes away the
// one an earlier failure left.
func (l *Loading) Take(key string, err error) (keep bool, flash tea.Cmd) {
	flash = LoadFlash(key, err, l.Err != nil)
	if err != nil {
		l.Err = err
		return false, flash
	}
	l.Err, l.Loaded = nil, true
	return true, flash
}

// Placeholder is what the view shows in place of its n rows, dimmed and
// one line each: the first load's error, loading, or empty when there are
// none; show is false when there are rows to draw.
func (l Loading) Placeholder(st *Styles, n int, loading string, empty ...string) (text string, show bool) {
	switch {
	case !l.Loaded && l.Err != nil:
		return st.LoadFailed(l.Err), true
	case !l.Loaded:
		return st.Dim.Render(loading), true
	case n == 0:
		for i, e := range empty {
			if i > 0 {
				text += "\n"
			}
			text += st.Dim.Render(e)
		}
		return text, true
	}
	return "", false
}
