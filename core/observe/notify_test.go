package observe

import (
	"bytes"
	"context"
	"crypto/hmac"
	"crypto/sha256"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/palink/palink/model"
	"github.com/palink/palink/store"
	"github.com/palink/palink/yarn"
)

func sampleAlert() model.Alert {
	a := model.Alert{Rule: "job-failed", Kind: "job_failed", Severity: "critical", JobID: "j1", JobName: "orders-enrich",
		Cluster: "prod", State: model.AlertFiring, Since: alertT0, Value: "FAILED: java.lang.OutOfMemoryError"}
	a.Message = alertMessage(&a, alertT0)
	return a
}

func TestRenderAlertFormats(t *testing.T) {
	now := alertT0.Add(time.Minute)
	a := sampleAlert()

	b, q, err := renderAlert(FormatJSON, a, "", now)
	if err != nil || q != nil {
		t.Fatal(err)
	}
	var j alertJSON
	if err := json.Unmarshal(b, &j); err != nil {
		t.Fatal(err)
	}
	if j.Status != "firing" || j.Key != "job-failed/j1" || j.Job.Name != "orders-enrich" || j.Job.Cluster != "prod" ||
		!j.Since.Equal(alertT0) || j.Message != "[FIRING] job-failed · orders-enrich (prod): FAILED: java.lang.OutOfMemoryError" {
		t.Errorf("json: %s", b)
	}
	if strings.Contains(string(b), "resolved_at") {
		t.Errorf("a firing alert carries resolved_at: %s", b)
	}

	b, _, _ = renderAlert(FormatSlack, a, "", now)
	var s map[string]string
	if json.Unmarshal(b, &s) != nil || !strings.HasPrefix(s["text"], ":red_circle: [FIRING] job-failed") {
		t.Errorf("slack: %s", b)
	}

	r := a
	r.State, r.ResolvedAt = model.AlertResolved, alertT0.Add(3*time.Minute)
	r.Message = alertMessage(&r, r.ResolvedAt)
	if r.Message != "[RESOLVED] job-failed · orders-enrich (prod) after 3m: FAILED: java.lang.OutOfMemoryError" {
		t.Errorf("resolve message %q", r.Message)
	}
	b, q, _ = renderAlert(FormatDingTalk, r, "SECabc", now)
	var d struct {
		MsgType  string `json:"msgtype"`
		Markdown struct{ Title, Text string }
	}
	if json.Unmarshal(b, &d) != nil || d.MsgType != "markdown" || !strings.Contains(d.Markdown.Title, "resolved") ||
		!strings.Contains(d.Markdown.Text, "- resolved: 2026-03-14T09:03:00Z") {
		t.Errorf("dingtalk: %s", b)
	}
	// DingTalk checks HMAC-SHA256(secret, timestamp + "\n" + secret), base64.
	ts := q.Get("timestamp")
	m := hmac.New(sha256.New, []byte("SECabc"))
	m.Write([]byte(ts + "\nSECabc"))
	if ts != "1773478860000" || q.Get("sign") != base64.StdEncoding.EncodeToString(m.Sum(nil)) {
		t.Errorf("dingtalk signature: %v", q)
	}

	b, q, _ = renderAlert(FormatFeishu, a, "s3cret", now)
	var fs struct {
		MsgType   string `json:"msg_type"`
		Content   struct{ Text string }
		Timestamp string
		Sign      string
	}
	if json.Unmarshal(b, &fs) != nil || fs.MsgType != "text" || !strings.HasPrefix(fs.Content.Text, "[FIRING]") || q != nil {
		t.Fatalf("feishu: %s", b)
	}
	// Feishu checks HMAC-SHA256 keyed by timestamp + "\n" + secret over nothing, base64.
	fm := hmac.New(sha256.New, []byte(fs.Timestamp+"\ns3cret"))
	if fs.Timestamp != "1773478860" || fs.Sign != base64.StdEncoding.EncodeToString(fm.Sum(nil)) {
		t.Errorf("feishu signature: %s", b)
	}
	if strings.Contains(string(b), "s3cret") {
		t.Error("the secret is in the message")
	}

	if _, _, err := renderAlert("teams", a, "", now); err == nil {
		t.Error("an unknown format rendered")
	}
}

func TestAnswerChecks(t *testing.T) {
	ding := answerCheck(FormatDingTalk)
	for body, want := range map[string]string{
		`{"errcode":0,"errmsg":"ok"}`:                  "",
		`{"errcode":310000,"errmsg":"sign not match"}`: "dingtalk refused the message: sign not match (errcode 310000)",
		`{"errcode":130101,"errmsg":"send too fast"}`:  "retry",
		`ok`: "",
	} {
		err := ding(yarn.WebhookAnswer{Status: 200, Body: []byte(body)})
		switch want {
		case "":
			if err != nil {
				t.Errorf("%s: %v", body, err)
			}
		case "retry":
			if !errors.Is(err, yarn.ErrUnavailable) {
				t.Errorf("%s: %v, want a retryable error", body, err)
			}
		default:
			if err == nil || err.Error() != want || errors.Is(err, yarn.ErrUnavailable) {
				t.Errorf("%s: %v, want %q", body, err, want)
			}
		}
	}
	feishu := answerCheck(FormatFeishu)
	if err := feishu(yarn.WebhookAnswer{Body: []byte(`{"StatusCode":0,"StatusMessage":"success"}`)}); err != nil {
		t.Error(err)
	}
	if err := feishu(yarn.WebhookAnswer{Body: []byte(`{"code":19021,"msg":"sign match fail or timestamp is not within one hour from current time"}`)}); err == nil {
		t.Error("a refused Feishu message passed")
	}
	if answerCheck(FormatSlack) != nil || answerCheck(FormatJSON) != nil {
		t.Error("slack and json receivers answer with their status alone")
	}
}

// TestDeliveryFailuresLogNoSecret: a webhook that fails is retried on
// later rounds, and neither the log nor the error shows its URL's token.
func TestDeliveryFailuresLogNoSecret(t *testing.T) {
	var mu sync.Mutex
	hits := 0
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		hits++
		mu.Unlock()
		http.Error(w, "boom", http.StatusInternalServerError)
	}))
	defer srv.Close()
	t.Setenv("PALINK_TEST_HOOK", srv.URL+"/services/T0KEN1/B0/T0KEN2?access_token=T0KEN3")
	var logs bytes.Buffer
	fromEnv := func(name, v string) func() (string, error) {
		return func() (string, error) {
			if u := os.Getenv(v); u != "" {
				return u, nil
			}
			return "", fmt.Errorf("webhook %s: environment variable %s is empty", name, v)
		}
	}
	hooks := []Webhook{
		{Name: "ops", Endpoint: fromEnv("ops", "PALINK_TEST_HOOK"), Retries: 1, Timeout: 10 * time.Second},
		{Name: "missing", Endpoint: fromEnv("missing", "PALINK_TEST_NO_SUCH_VAR"), Retries: 3, Timeout: 10 * time.Second},
	}
	st, err := store.Open(filepath.Join(t.TempDir(), "palink.db"), store.Options{NoSync: true})
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	l := New(Options{Store: st, Settings: Settings{Webhooks: hooks}, HookRetryWait: time.Millisecond,
		Log: slog.New(slog.NewTextHandler(&syncWriter{w: &logs}, &slog.HandlerOptions{Level: slog.LevelDebug}))})
	a := sampleAlert()
	l.al.load([]model.Alert{a})
	ctx, cancel := context.WithCancel(context.Background())
	kick := make(chan struct{})
	done := make(chan struct{})
	go func() { defer close(done); l.runNotifier(ctx, kick) }()
	kick <- struct{}{}
	kick <- struct{}{} // the second kick waits until the first round is over
	cancel()
	<-done
	mu.Lock()
	n := hits
	mu.Unlock()
	if n != 2 {
		t.Errorf("receiver hit %d times, want 2 (1 + 1 retry), then a pause before the next round", n)
	}
	out := logs.String()
	if strings.Contains(out, "T0KEN") || strings.Contains(out, "/services/") {
		t.Fatalf("the log shows the webhook URL's token:\n%s", out)
	}
	if !strings.Contains(out, "webhook delivery failed") || !strings.Contains(out, "webhook=ops") ||
		!strings.Contains(out, "webhook left out") || !strings.Contains(out, "webhook=missing") {
		t.Errorf("log lacks the failures by webhook name:\n%s", out)
	}
	if al := l.al.alerts[a.Key()]; len(al.Notified) != 0 {
		t.Errorf("a failed delivery was recorded as sent: %+v", al)
	}
}

// syncWriter serialises writes to a buffer read after the writers stopped.
type syncWriter struct {
	mu sync.Mutex
	w  *bytes.Buffer
}

func (s *syncWriter) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.w.Write(p)
}
