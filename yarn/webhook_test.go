package yarn

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"sync/atomic"
	"testing"
	"time"
)

// quick retries, so tests take milliseconds.
var webhookOpts = Options{Timeout: 2 * time.Second, Retries: 3, RetryWait: time.Millisecond, RetryMaxWait: 5 * time.Millisecond}

func TestWebhookPostsJSON(t *testing.T) {
	var got struct {
		method, ctype, path, query string
		body                       map[string]any
	}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		got.method, got.ctype, got.path, got.query = r.Method, r.Header.Get("Content-Type"), r.URL.Path, r.URL.RawQuery
		_ = json.NewDecoder(r.Body).Decode(&got.body)
		w.Write([]byte(`{"ok":true}`))
	}))
	defer srv.Close()
	w, err := NewWebhook(srv.URL+"/services/T000/B000/SECRET?access_token=SECRET2", webhookOpts)
	if err != nil {
		t.Fatal(err)
	}
	n, err := w.Post(context.Background(), []byte(`{"text":"hello"}`), url.Values{"sign": {"abc="}}, nil)
	if err != nil || n != 1 {
		t.Fatalf("Post = %d attempts, %v", n, err)
	}
	if got.method != "POST" || !strings.HasPrefix(got.ctype, "application/json") || got.path != "/services/T000/B000/SECRET" ||
		got.query != "access_token=SECRET2&sign=abc%3D" || got.body["text"] != "hello" {
		t.Errorf("receiver saw %+v", got)
	}
	if s := w.String(); strings.Contains(s, "SECRET") || !strings.HasSuffix(s, "/…") {
		t.Errorf("String() = %q", s)
	}
}

func TestWebhookRetriesTransientFailures(t *testing.T) {
	var calls atomic.Int32
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch calls.Add(1) {
		case 1:
			http.Error(w, "busy", http.StatusServiceUnavailable)
		case 2:
			w.Header().Set("Retry-After", "0")
			http.Error(w, "slow down", http.StatusTooManyRequests)
		case 3:
			http.Error(w, "oops", http.StatusInternalServerError)
		default:
			w.Write([]byte("ok"))
		}
	}))
	defer srv.Close()
	w, _ := NewWebhook(srv.URL+"/hook/SECRET", webhookOpts)
	n, err := w.Post(context.Background(), []byte(`{}`), nil, nil)
	if err != nil || n != 4 || calls.Load() != 4 {
		t.Fatalf("Post = %d attempts, %v (server saw %d)", n, err, calls.Load())
	}
}

func TestWebhookGivesUpAndHidesTheURL(t *testing.T) {
	var calls atomic.Int32
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		calls.Add(1)
		http.Error(w, "bad gateway", http.StatusBadGateway)
	}))
	defer srv.Close()
	w, _ := NewWebhook(srv.URL+"/services/T/B/SECRET?token=SECRET", webhookOpts)
	n, err := w.Post(context.Background(), []byte(`{}`), nil, nil)
	if err == nil || n != 4 || calls.Load() != 4 {
		t.Fatalf("Post = %d attempts, %v; want 1 + 3 retries, then the error", n, err)
	}
	if !errors.Is(err, ErrUnavailable) || strings.Contains(err.Error(), "SECRET") || !strings.Contains(err.Error(), "POST /REDACTED on 127.0.0.1") {
		t.Errorf("error %q: want unavailable, naming the host but not the token", err)
	}

	// A refused connection is retried too, and its message hides the URL.
	srv.Close()
	n, err = w.Post(context.Background(), []byte(`{}`), nil, nil)
	if err == nil || n != 4 || !errors.Is(err, ErrUnavailable) || strings.Contains(err.Error(), "SECRET") {
		t.Errorf("refused: %d attempts, %v", n, err)
	}
}

func TestWebhookClientErrorsAreNotRetried(t *testing.T) {
	var calls atomic.Int32
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		calls.Add(1)
		w.WriteHeader(http.StatusBadRequest)
		io.WriteString(w, `{"errors":["invalid payload"]}`)
	}))
	defer srv.Close()
	w, _ := NewWebhook(srv.URL+"/x", webhookOpts)
	n, err := w.Post(context.Background(), []byte(`{}`), nil, nil)
	var he *HTTPError
	if !errors.As(err, &he) || he.Status != 400 || n != 1 || calls.Load() != 1 || !strings.Contains(err.Error(), "invalid payload") {
		t.Errorf("Post = %d attempts, %v", n, err)
	}
}

func TestWebhookCheckJudgesTheAnswer(t *testing.T) {
	var calls atomic.Int32
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if calls.Add(1) == 1 {
			io.WriteString(w, `{"errcode":130101,"errmsg":"send too fast"}`)
			return
		}
		io.WriteString(w, `{"errcode":310000,"errmsg":"sign not match"}`)
	}))
	defer srv.Close()
	w, _ := NewWebhook(srv.URL+"/robot/send?access_token=SECRET", webhookOpts)
	check := func(a WebhookAnswer) error {
		var v struct {
			Code int    `json:"errcode"`
			Msg  string `json:"errmsg"`
		}
		_ = json.Unmarshal(a.Body, &v)
		switch v.Code {
		case 0:
			return nil
		case 130101:
			return fmt.Errorf("dingtalk: %s: %w", v.Msg, ErrUnavailable)
		}
		return fmt.Errorf("dingtalk: %s (%d)", v.Msg, v.Code)
	}
	n, err := w.Post(context.Background(), []byte(`{}`), nil, check)
	if n != 2 || err == nil || !strings.Contains(err.Error(), "sign not match") {
		t.Errorf("Post = %d attempts, %v; want the rate limit retried, then the refusal", n, err)
	}
}

func TestWebhookStopsWithItsContext(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		http.Error(w, "busy", http.StatusServiceUnavailable)
	}))
	defer srv.Close()
	o := webhookOpts
	o.Retries, o.RetryWait, o.RetryMaxWait = 100, time.Second, time.Second
	w, _ := NewWebhook(srv.URL, o)
	ctx, cancel := context.WithTimeout(context.Background(), 100*time.Millisecond)
	defer cancel()
	start := time.Now()
	n, err := w.Post(ctx, []byte(`{}`), nil, nil)
	if err == nil || n > 2 || time.Since(start) > 2*time.Second {
		t.Errorf("Post under a 100ms ctx = %d attempts, %v after %s", n, err, time.Since(start))
	}
}

func TestNewWebhookRefusesNonHTTP(t *testing.T) {
	_, err := NewWebhook("ftp://host/path/SECRET", Options{})
	if err == nil || strings.Contains(err.Error(), "SECRET") {
		t.Errorf("NewWebhook(ftp) = %v", err)
	}
}
