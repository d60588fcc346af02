package vars_test

import (
	"errors"
	"strings"
	"testing"

	"github.com/palink/palink/model"
	"github.com/palink/palink/tui"
	"github.com/palink/palink/tui/internal/apptest"
	"github.com/palink/palink/tui/internal/tuitest"
	"github.com/palink/palink/tui/vars"
)

func withVars(f *tuitest.Fake) *tuitest.Fake {
	f.Mu.Lock()
	f.Variables = tuitest.FixtureVars()
	f.Mu.Unlock()
	return f
}

func openVars(h *tuitest.Harness, line string) {
	h.T.Helper()
	h.Press(":")
	h.Type(line)
	h.Press("enter")
}

// selectVar moves the cursor to the named variable with the keyboard.
func selectVar(h *tuitest.Harness, name string) {
	h.T.Helper()
	h.Press("g")
	for range 20 {
		if strings.Contains(h.Screen(), "${"+name+"} · ") {
			return
		}
		h.Press("j")
	}
	h.T.Fatalf("variable %s is not in the list:\n%s", name, h.Screen())
}

// footer is the frame's key line.
func footer(h *tuitest.Harness) string {
	l := strings.Split(h.Screen(), "\n")
	return l[len(l)-2]
}

// TestVarsViewListsTheClusterMasked: `:vars` lists what prod's jobs see —
// its own kafka over every cluster's, every cluster's rows — and a secret
// only masked, with where it comes from: never its value, not even one a
// service let through, nor a command's arguments.
func TestVarsViewListsTheClusterMasked(t *testing.T) {
	f := withVars(tuitest.NewFixture())
	h := apptest.New(t, f, 120, 40, tui.Options{})
	openVars(h, "vars")
	if _, ok := h.Top().(*vars.Screen); !ok {
		t.Fatalf(":vars opened %T", h.Top())
	}
	h.MustShow("Variables @prod", "5 variables", "kafka-prod-1.acme:9092", "1000",
		"•••• (env PROD_USERS_PASS)", "•••• (file /etc/palink/sink_token)", "•••• (command vault)")
	h.MustNotShow("kafka-1.acme:9092", "hunter2-leaked", "s.XyZ", "secret/db")
	// Every row in depth: the secret ones say where the value is read.
	for range 5 {
		h.MustNotShow("hunter2-leaked", "s.XyZ")
		h.Press("j")
	}
	selectVar(h, "users_password")
	h.MustShow("${users_password} · of cluster prod", "environment variable PROD_USERS_PASS", "never keeps or shows the value")
	h.MustNotShow("hunter2")
	openVars(h, "vars staging")
	h.MustShow("Variables @staging", "2 variables", "kafka-1.acme:9092")
	openVars(h, "vars nowhere")
	if got := h.Flash(); got != ":vars nowhere: no such cluster (clusters: prod, staging)" {
		t.Errorf("flash %q", got)
	}
}

// TestVarsSetASecretMaskedAndUnsetAfterConfirming: an admin sets a secret
// whose command is typed masked — its token never on screen, in the form
// or after — and unsets it only once the confirmation's Unset is chosen:
// enter right away cancels.
func TestVarsSetASecretMaskedAndUnsetAfterConfirming(t *testing.T) {
	f := withVars(tuitest.NewFixture())
	h := apptest.New(t, f, 120, 40, tui.Options{})
	openVars(h, "vars")
	h.Press("a")
	if h.App.Dialog() == nil {
		t.Fatalf("a opened no form:\n%s", h.Screen())
	}
	h.MustShow("Set a variable", "name", "scope", "every cluster")
	h.Type("db_pass")
	h.Press("tab", "tab", "right", "right", "right", "tab") // scope prod; kind: command
	h.Type("vault kv get -field=password -token=s.Planted secret/db")
	h.MustShow("••••••••", "typed masked")
	h.MustNotShow("s.Planted", "vault kv")
	h.Press("enter")
	if !f.Called("SetVar prod db_pass •••• (command vault)") {
		t.Fatalf("calls %v", f.Calls())
	}
	if h.App.Dialog() != nil {
		t.Fatalf("the form stayed open after the variable was set:\n%s", h.Screen())
	}
	if got := h.Flash(); got != "set ${db_pass} of cluster prod = •••• (command vault)" {
		t.Errorf("flash %q", got)
	}
	h.MustShow("6 variables", "db_pass")
	h.MustNotShow("s.Planted")

	selectVar(h, "db_pass")
	h.Press("ctrl+d")
	h.MustShow("Unset ${db_pass} of cluster prod?", "Now •••• (command vault).", "get the variable of every")
	h.Press("enter") // Cancel has the focus
	if h.App.Dialog() != nil || f.Called("RemoveVar") {
		t.Fatalf("enter right away unset it: %v", f.Calls())
	}
	h.Press("ctrl+d", "right", "enter")
	if !f.Called("RemoveVar prod db_pass") {
		t.Fatalf("calls %v", f.Calls())
	}
	if got := h.Flash(); got != "unset ${db_pass} of cluster prod" {
		t.Errorf("flash %q", got)
	}
	h.MustShow("5 variables")
	h.MustNotShow("db_pass        prod")
}

// TestVarsFormKeepsWhatWasTypedOnARefusal: a name the catalog cannot take
// is said in the form, which asks nothing; a refusal of the service is
// said there too, and what was typed stays to fix. e changes the cursor's
// value, its name and scope kept.
func TestVarsFormKeepsWhatWasTypedOnARefusal(t *testing.T) {
	f := withVars(tuitest.NewFixture())
	h := apptest.New(t, f, 120, 40, tui.Options{})
	openVars(h, "vars")
	h.Press("a")
	h.Type("2fast")
	h.Press("tab", "right") // every cluster
	h.Press("enter")
	h.MustShow(`"2fast" is not a variable name`)
	if f.Called("SetVar") {
		t.Fatal("an invalid name reached the service")
	}
	h.Press("shift+tab") // back to the name
	for range 5 {
		h.Press("backspace")
	}
	h.Type("fast")
	h.Press("tab", "tab", "tab")
	h.Type("yes")
	f.SetFail(errors.New("set a variable: user ops is an operator on this agent; it needs an admin (admins: in the config)"))
	h.Press("enter")
	h.MustShow("it needs an admin", "yes")
	if h.App.Dialog() == nil {
		t.Fatal("a refusal closed the form")
	}
	f.SetFail(nil)
	h.Press("enter")
	if !f.Called("SetVar * fast yes") {
		t.Fatalf("calls %v", f.Calls())
	}

	selectVar(h, "rows")
	h.Press("e")
	h.MustShow("Change ${rows} of every cluster")
	for range 4 {
		h.Press("backspace")
	}
	h.Type("2000")
	h.Press("enter")
	if !f.Called("SetVar * rows 2000") {
		t.Fatalf("calls %v", f.Calls())
	}
}

// TestVarsViewerSeesTheListOnly: the role table gives setting and
// unsetting to admins: a viewer sees the variables, the footer offers
// none of the keys, and pressing one says why.
func TestVarsViewerSeesTheListOnly(t *testing.T) {
	f := withVars(tuitest.NewFixture())
	f.Viewer = true
	h := apptest.New(t, f, 120, 40, tui.Options{})
	openVars(h, "vars")
	h.MustShow("5 variables", "read-only: set a variable: you are a viewer; it needs an admin", "•••• (env PROD_USERS_PASS)")
	if ft := footer(h); strings.Contains(ft, "set variable") || strings.Contains(ft, "unset") || strings.Contains(ft, "change value") {
		t.Errorf("a viewer is offered changes: %q", ft)
	}
	for _, k := range []string{"a", "e", "ctrl+d"} {
		h.Press(k)
		if h.App.Dialog() != nil {
			t.Fatalf("%s opened a dialog for a viewer", k)
		}
	}
	if f.Called("SetVar") || f.Called("RemoveVar") {
		t.Fatalf("calls %v", f.Calls())
	}
}

// TestVarsOperatorIsNotOfferedWhatNeedsAnAdmin: an operator may act on
// jobs, not change what they are given; the role table says so, not the
// read-only flag.
func TestVarsOperatorIsNotOfferedWhatNeedsAnAdmin(t *testing.T) {
	f := withVars(tuitest.NewFixture())
	f.Role = model.Operator
	h := apptest.New(t, f, 120, 40, tui.Options{})
	openVars(h, "vars")
	h.Press("a")
	if h.App.Dialog() != nil {
		t.Fatal("a opened the form for an operator")
	}
	if got := h.Flash(); got != "set a variable: you are an operator; it needs an admin" {
		t.Errorf("flash %q", got)
	}
}

func TestGoldenVars(t *testing.T) {
	apptest.GoldenFrame(t, "vars", withVars, tui.Options{}, func(h *tuitest.Harness) {
		openVars(h, "vars")
		h.Press("j", "j")
	})
}

func TestGoldenVarsSetSecret(t *testing.T) {
	apptest.GoldenFrame(t, "vars_set_secret", withVars, tui.Options{}, func(h *tuitest.Harness) {
		openVars(h, "vars")
		h.Press("a")
		h.Type("db_pass")
		h.Press("tab", "tab", "left", "tab")
		h.Type("vault kv get -token=s.Planted secret/db")
	})
}
