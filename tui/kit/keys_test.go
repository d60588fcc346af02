package kit

import (
	"testing"

	tea "charm.land/bubbletea/v2"
)

func TestBlockedKeysHideAndSayWhy(t *testing.T) {
	k := NewKeyMap()
	k.SetReadOnly(true)
	k.Block(&k.Cluster.Adopt, AllKeys.Cluster.Adopt, "adopt: nothing to adopt")
	p := tea.KeyPressMsg{Code: 'p', Text: "p"}
	if k.Action.Pause.Enabled() {
		t.Fatal("read-only left pause enabled")
	}
	if why, ok := k.Refused(p, AllKeys.Action.Bindings()...); !ok || why != "read-only: actions are disabled" {
		t.Errorf("p: %q %v", why, ok)
	}
	// A key the screen does not answer to is not refused there.
	if _, ok := k.Refused(p, AllKeys.Cluster.Adopt); ok {
		t.Error("p refused among the cluster's keys")
	}
	// The first block of a key says why: read-only before the screen's own.
	a := tea.KeyPressMsg{Code: 'a', Text: "a"}
	if why, _ := k.Refused(a, AllKeys.Cluster.Adopt); why != "read-only: adopting is disabled" {
		t.Errorf("a: %q", why)
	}
	k = NewKeyMap()
	k.SetReadOnly(false)
	if !k.Action.Pause.Enabled() {
		t.Error("SetReadOnly(false) left pause disabled")
	}
	if _, ok := k.Refused(p, AllKeys.Action.Bindings()...); ok {
		t.Error("an enabled key was refused")
	}
}
