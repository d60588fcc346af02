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

// A blocked key is refused for its own reason, not for another screen's
// key on the same letter (the cluster's a adopts; the metric browser's a
// charts).
func TestRefusedSaysWhyOfTheKeyAsked(t *testing.T) {
	k := NewKeyMap()
	k.SetReadOnly(true)
	a := tea.KeyPressMsg{Code: 'a', Text: "a"}
	if why, ok := k.Refused(a, AllKeys.Charts.Add, AllKeys.Charts.Remove); !ok || why != "read-only: charts cannot be added or removed" {
		t.Errorf("a in the metric browser: %q %v", why, ok)
	}
	if why, ok := k.Refused(a, AllKeys.Cluster.Adopt); !ok || why != "read-only: adopting is disabled" {
		t.Errorf("a in the cluster view: %q %v", why, ok)
	}
	if why, ok := k.Refused(a, AllKeys.Alerts.Ack); !ok || why != "read-only: alerts cannot be acknowledged or silenced" {
		t.Errorf("a in the alerts view: %q %v", why, ok)
	}
}
