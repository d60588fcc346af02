package kit

import (
	"context"
	"testing"

	tea "charm.land/bubbletea/v2"
)

func TestRefresherKeepsOneLoadInFlight(t *testing.T) {
	e := NewEnv(context.Background(), nil, false)
	var sent []int
	r := NewRefresher(e, func(seq int) tea.Cmd {
		sent = append(sent, seq)
		return func() tea.Msg { return seq }
	})
	if r.Refresh() == nil || !r.Busy() {
		t.Fatal("the first refresh made no load")
	}
	first := r.Seq()
	if r.Refresh() != nil || r.Refresh() != nil {
		t.Fatal("a refresh went out while a load was in flight")
	}
	if ok, _ := r.Done(first - 1); ok {
		t.Fatal("an answer to another load was taken")
	}
	ok, next := r.Done(first)
	if !ok || next == nil {
		t.Fatalf("the answer: current %v, follow-up %v; want the asked-for refresh to follow", ok, next != nil)
	}
	if len(sent) != 2 || !r.Busy() {
		t.Fatalf("loads %v: want the first and one follow-up for two refreshes asked meanwhile", sent)
	}
	ok, next = r.Done(r.Seq())
	if !ok || next != nil || r.Busy() {
		t.Fatal("the follow-up's answer did not end the loads")
	}
}

func TestRefresherDropForgetsTheLoadInFlight(t *testing.T) {
	e := NewEnv(context.Background(), nil, false)
	r := NewRefresher(e, func(seq int) tea.Cmd { return func() tea.Msg { return seq } })
	r.Refresh()
	old := r.Seq()
	r.Drop()
	if r.Refresh() == nil {
		t.Fatal("after Drop, a refresh waited for the dropped load")
	}
	if ok, _ := r.Done(old); ok {
		t.Fatal("the dropped load's answer was taken")
	}
	if ok, _ := r.Done(r.Seq()); !ok {
		t.Fatal("the new load's answer was dropped")
	}
}
