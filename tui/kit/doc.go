// Package kit is what every screen of palink's TUI shares:
//
//   - screen.go: the Screen and Dialog interfaces the root's stack holds,
//     and the optional KeyUpdater, Interrupter, Backer and Closer;
//   - diag.go: Diagnose, the one way a screen fetches through
//     api.DiagnoseService;
//   - env.go: the Env (service, settings, styles, keys, clock), the Call
//     a Cmd captures instead of the model (CallOf: with the part of the
//     service its screen uses), and Get, the Cmd of one read;
//   - keys.go: the keymap in groups, with SetReadOnly and Block/Refused for
//     keys that the state turns off (hidden, and saying why when pressed);
//   - styles.go: one Styles struct by meaning, a dark and a light set;
//   - flash.go: the flash line and the FlashMsg a screen sends: busy
//     flashes that their result replaces, flashes scoped to the screen
//     they were shown over, and keys that clear a flash when its cause
//     is gone;
//   - refresher.go: the Refresher that keeps one load in flight per screen,
//     with the request's identity to drop late answers;
//   - list.go, pager.go, text.go, filter.go: List (a cursor over rows),
//     LineCursor (over the selectable lines of a text), Pager (scrolling
//     with a bubbles viewport), TextScreen (which wraps and scrolls
//     sideways) and Filter (a list's `/`);
//   - columns.go: Column and Columns, a list's columns as specs (title,
//     width, alignment, cell, style, which ones a narrow terminal drops)
//     and the pure function that draws its header and rows from them;
//   - table.go: Table, a list view's state — the items loaded, the ones
//     its filter lets through, a cursor that follows its item by id, and
//     its loads (one in flight, a failed reload keeping the rows);
//   - loading.go: Loading, where a list's loads stand, and its placeholder;
//   - msgs.go: the messages a screen sends the root (open a screen, start
//     an action) and the results the root shares with every screen;
//   - format.go, command.go, box.go: the pure formatters (a command's
//     result, a lease owner as a host) and the box that frames a view;
//   - role.go: Role, who the user is (WhoAmI), to offer a key only to
//     whom the API's role table lets call its method;
//   - confirm.go: Confirm, the confirmation a screen opens (OpenDialogMsg)
//     before a change it cannot take back, Cancel focused;
//   - exteditor.go: the user's $EDITOR, and a text handed to it in a file.
//
// kit imports core/api and model only; it never imports tui or a feature
// package (tui/jobs, tui/editor, …): they import it (TestPackageArrows).
package kit
