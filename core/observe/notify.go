package observe

import (
	"context"
	"crypto/hmac"
	"crypto/sha256"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"net/url"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/palink/palink/model"
	"github.com/palink/palink/yarn"
)

// Alert notifications: every webhook that takes a rule gets each firing of
// it once, and its resolve once (only a webhook that was told of the
// firing is told of the resolve). A delivery is recorded on the alert in
// the store as soon as the receiver took it, so a restart does not send it
// again; a delivery that fails after the client's retries is tried again
// on later rounds, with a growing pause. Webhook URLs carry tokens: they
// appear in no log line and no error, only the webhook's name does.

// hook is one configured webhook, ready to send.
type hook struct {
	cfg    Webhook
	client *yarn.Webhook
	secret string // signing secret of DingTalk and Feishu bots
}

// delivery is one message owed to one webhook.
type delivery struct {
	hook     *hook
	alert    model.Alert // a copy, as it was when the delivery was planned
	resolved bool
}

// hookRetry is the pause before retrying a delivery that failed: doubling
// from the first up to the last.
var hookRetry = struct{ first, last time.Duration }{30 * time.Second, 10 * time.Minute}

// buildHooks resolves the configured webhooks. One that cannot be built
// (its URL variable is empty, its file unreadable) is logged by name and
// left out; the others work.
func (o *Observer) buildHooks() []*hook {
	var out []*hook
	for _, w := range o.webhooks {
		endpoint, err := w.Endpoint()
		if err == nil {
			var secret string
			if w.Secret != nil {
				secret, err = w.Secret()
			}
			if err == nil {
				var c *yarn.Webhook
				c, err = yarn.NewWebhook(endpoint, yarn.Options{Timeout: w.Timeout, Retries: w.Retries,
					RetryWait: o.hookRetryWait(), RetryMaxWait: 20 * o.hookRetryWait(), UserAgent: "palink"})
				if err == nil {
					out = append(out, &hook{cfg: w, client: c, secret: secret})
					continue
				}
			}
		}
		o.log.Error("alerts: webhook left out", "webhook", w.Name, "err", err)
	}
	return out
}

// hookRetryWait is the first pause between a webhook client's retries.
func (o *Observer) hookRetryWait() time.Duration {
	if o.hookWait > 0 {
		return o.hookWait
	}
	return defaultHookRetryWait
}

// defaultHookRetryWait is the first pause between webhook retries.
const defaultHookRetryWait = 500 * time.Millisecond

// runNotifier delivers what the alerts owe each time kick says a round of
// rules ended, one delivery at a time, until ctx is done.
func (o *Observer) runNotifier(ctx context.Context, kick <-chan struct{}) {
	hooks := o.buildHooks()
	defer func() {
		for _, h := range hooks {
			h.client.CloseIdleConnections()
		}
	}()
	failures := map[string]int{}      // delivery key → failed attempts
	nextTry := map[string]time.Time{} // delivery key → not before
	for {
		select {
		case <-ctx.Done():
			return
		case <-kick:
		}
		if len(hooks) == 0 {
			continue
		}
		now := o.now()
		for _, d := range o.al.owed(hooks, o.now()) {
			key := d.key()
			if now.Before(nextTry[key]) {
				continue
			}
			err := o.deliver(ctx, d)
			if ctx.Err() != nil {
				return
			}
			if err != nil {
				failures[key]++
				wait := min(hookRetry.first<<min(failures[key]-1, 10), hookRetry.last)
				nextTry[key] = now.Add(wait)
				o.log.Warn("alerts: webhook delivery failed", "webhook", d.hook.cfg.Name, "alert", d.alert.Key(),
					"attempts", failures[key], "retry in", wait, "err", err)
				continue
			}
			delete(failures, key)
			delete(nextTry, key)
			if o.al.delivered(d) {
				if err := o.storeAlerts(ctx); err != nil && ctx.Err() == nil {
					o.log.Warn("alerts: record delivery", "err", err)
				}
			}
		}
	}
}

func (d delivery) key() string {
	state := "firing"
	if d.resolved {
		state = "resolved"
	}
	return d.hook.cfg.Name + "|" + d.alert.Key() + "|" + d.alert.Since.UTC().Format(time.RFC3339Nano) + "|" + state
}

// owed lists the deliveries the alerts still owe, oldest alert first; a
// silenced alert owes nothing until its silence ends.
func (a *alerter) owed(hooks []*hook, now time.Time) []delivery {
	a.mu.Lock()
	defer a.mu.Unlock()
	var out []delivery
	for _, al := range a.alerts {
		if al.Silenced(now) {
			continue
		}
		for _, h := range hooks {
			if !h.cfg.Wants(al.Rule) {
				continue
			}
			told := slices.Contains(al.Notified, h.cfg.Name)
			switch {
			case al.State == model.AlertFiring && !told:
				out = append(out, delivery{hook: h, alert: copyAlert(al)})
			case al.State == model.AlertResolved && told && !slices.Contains(al.ResolveNotified, h.cfg.Name):
				out = append(out, delivery{hook: h, alert: copyAlert(al), resolved: true})
			}
		}
	}
	slices.SortFunc(out, func(x, y delivery) int {
		if c := x.alert.Since.Compare(y.alert.Since); c != 0 {
			return c
		}
		return strings.Compare(x.key(), y.key())
	})
	return out
}

func copyAlert(a *model.Alert) model.Alert {
	c := *a
	c.Notified, c.ResolveNotified = slices.Clone(a.Notified), slices.Clone(a.ResolveNotified)
	return c
}

// delivered records a successful delivery on the alert, unless the alert
// moved on meanwhile (fired anew); it reports whether it recorded.
func (a *alerter) delivered(d delivery) bool {
	a.mu.Lock()
	defer a.mu.Unlock()
	al := a.alerts[d.alert.Key()]
	if al == nil || !al.Since.Equal(d.alert.Since) {
		return false
	}
	name := d.hook.cfg.Name
	if d.resolved {
		if slices.Contains(al.ResolveNotified, name) {
			return false
		}
		al.ResolveNotified = append(al.ResolveNotified, name)
	} else {
		if slices.Contains(al.Notified, name) {
			return false
		}
		al.Notified = append(al.Notified, name)
	}
	a.dirty[al.Key()] = true
	return true
}

// deliver sends one message.
func (o *Observer) deliver(ctx context.Context, d delivery) error {
	now := o.now()
	body, query, err := renderAlert(d.hook.cfg.Format, d.alert, d.hook.secret, now)
	if err != nil {
		return err
	}
	_, err = d.hook.client.Post(ctx, body, query, answerCheck(d.hook.cfg.Format))
	if err != nil {
		return fmt.Errorf("webhook %s (%s): %w", d.hook.cfg.Name, d.hook.client, err)
	}
	o.log.Info("alerts: sent", "webhook", d.hook.cfg.Name, "alert", d.alert.Key(), "state", d.alert.State)
	return nil
}

// alertJSON is the generic format: the alert as data, for receivers that
// route or deduplicate by themselves (key + since identify one firing).
type alertJSON struct {
	Source     string    `json:"source"`
	Status     string    `json:"status"` // firing | resolved
	Key        string    `json:"key"`
	Rule       string    `json:"rule"`
	Kind       string    `json:"kind"`
	Severity   string    `json:"severity"`
	Job        jobRef    `json:"job"`
	Value      string    `json:"value"`
	Message    string    `json:"message"`
	Since      time.Time `json:"since"`
	ResolvedAt time.Time `json:"resolved_at,omitzero"`
	SentAt     time.Time `json:"sent_at"`
}

type jobRef struct {
	ID      string `json:"id"`
	Name    string `json:"name"`
	Cluster string `json:"cluster"`
}

// renderAlert builds a webhook's message in its format, with the query
// values a signed DingTalk URL needs.
func renderAlert(format string, a model.Alert, secret string, now time.Time) ([]byte, url.Values, error) {
	status := "firing"
	if a.State == model.AlertResolved {
		status = "resolved"
	}
	msg := a.Message
	if msg == "" {
		msg = alertMessage(&a, now)
	}
	var v any
	var q url.Values
	switch format {
	case FormatSlack:
		icon := ":red_circle:"
		if a.State == model.AlertResolved {
			icon = ":large_green_circle:"
		}
		v = map[string]string{"text": icon + " " + msg}
	case FormatDingTalk:
		title := fmt.Sprintf("palink %s: %s", status, a.JobName)
		text := fmt.Sprintf("### %s\n\n%s\n\n- rule: %s (%s)\n- severity: %s\n- since: %s",
			title, msg, a.Rule, a.Kind, a.Severity, a.Since.UTC().Format(time.RFC3339))
		if a.State == model.AlertResolved {
			text += "\n- resolved: " + a.ResolvedAt.UTC().Format(time.RFC3339)
		}
		v = map[string]any{"msgtype": "markdown", "markdown": map[string]string{"title": title, "text": text}}
		if secret != "" {
			ts := strconv.FormatInt(now.UnixMilli(), 10)
			q = url.Values{"timestamp": {ts}, "sign": {dingTalkSign(ts, secret)}}
		}
	case FormatFeishu:
		m := map[string]any{"msg_type": "text", "content": map[string]string{"text": msg}}
		if secret != "" {
			ts := strconv.FormatInt(now.Unix(), 10)
			m["timestamp"], m["sign"] = ts, feishuSign(ts, secret)
		}
		v = m
	case FormatJSON, "":
		v = alertJSON{Source: "palink", Status: status, Key: a.Key(), Rule: a.Rule, Kind: a.Kind, Severity: a.Severity,
			Job: jobRef{ID: a.JobID, Name: a.JobName, Cluster: a.Cluster}, Value: a.Value, Message: msg,
			Since: a.Since, ResolvedAt: a.ResolvedAt, SentAt: now}
	default:
		return nil, nil, fmt.Errorf("alert %s: unknown webhook format %q", a.Key(), format)
	}
	b, err := json.Marshal(v)
	if err != nil {
		return nil, nil, fmt.Errorf("alert %s: encode message: %w", a.Key(), err)
	}
	return b, q, nil
}

// dingTalkSign is DingTalk's robot signature: HMAC-SHA256 keyed by the
// secret over "timestamp\nsecret", base64 (the URL encoding is the query's).
func dingTalkSign(ts, secret string) string {
	m := hmac.New(sha256.New, []byte(secret))
	m.Write([]byte(ts + "\n" + secret))
	return base64.StdEncoding.EncodeToString(m.Sum(nil))
}

// feishuSign is Feishu's bot signature: HMAC-SHA256 keyed by
// "timestamp\nsecret" over nothing, base64.
func feishuSign(ts, secret string) string {
	m := hmac.New(sha256.New, []byte(ts+"\n"+secret))
	return base64.StdEncoding.EncodeToString(m.Sum(nil))
}

// answerCheck reads a chat bot's 200 answer, which carries its own error
// code: DingTalk's errcode, Feishu's code (StatusCode in older answers).
// Rate limits are retried; other refusals fail the delivery.
func answerCheck(format string) func(yarn.WebhookAnswer) error {
	switch format {
	case FormatDingTalk:
		return func(a yarn.WebhookAnswer) error {
			var v struct {
				Code *int   `json:"errcode"`
				Msg  string `json:"errmsg"`
			}
			if json.Unmarshal(a.Body, &v) != nil || v.Code == nil || *v.Code == 0 {
				return nil
			}
			if *v.Code == 130101 { // sending too fast
				return fmt.Errorf("dingtalk: %s (errcode %d): %w", v.Msg, *v.Code, yarn.ErrUnavailable)
			}
			return fmt.Errorf("dingtalk refused the message: %s (errcode %d)", v.Msg, *v.Code)
		}
	case FormatFeishu:
		return func(a yarn.WebhookAnswer) error {
			var v struct {
				Code       *int   `json:"code"`
				Msg        string `json:"msg"`
				StatusCode *int   `json:"StatusCode"`
			}
			if json.Unmarshal(a.Body, &v) != nil {
				return nil
			}
			code := v.Code
			if code == nil {
				code = v.StatusCode
			}
			if code == nil || *code == 0 {
				return nil
			}
			if *code == 9499 { // too many requests (also sent with a 400, which later rounds retry)
				return fmt.Errorf("feishu: %s (code %d): %w", v.Msg, *code, yarn.ErrUnavailable)
			}
			return fmt.Errorf("feishu refused the message: %s (code %d)", v.Msg, *code)
		}
	}
	return nil
}
