package store

import (
	"fmt"
	"strings"

	bolt "go.etcd.io/bbolt"

	"github.com/palink/palink/model"
)

// bucketAlerts holds one alert per (rule, job), keyed "<rule>/<job id>"
// (schema 2).
var bucketAlerts = []byte("alerts")

// alertStates are the states an alert record may hold.
var alertStates = []model.AlertState{model.AlertFiring, model.AlertResolved}

func checkAlert(a model.Alert) error {
	switch {
	case a.Rule == "":
		return fmt.Errorf("alert of job %s has no rule: %w", a.JobID, ErrInvalid)
	case a.JobID == "":
		return fmt.Errorf("alert of rule %s has no job id: %w", a.Rule, ErrInvalid)
	case strings.Contains(a.Rule, "/"):
		return fmt.Errorf("alert rule %q contains '/': %w", a.Rule, ErrInvalid)
	}
	return validEnum("alert state", a.State, alertStates)
}

// Alerts returns every alert, ordered by rule and job id.
func (t alertRecords) Alerts() ([]model.Alert, error) {
	out, err := all[model.Alert](t.txn, in(bucketAlerts), "alert")
	if err != nil {
		return nil, fmt.Errorf("read alerts: %w", err)
	}
	return out, nil
}

// PutAlert stores the alert of (a.Rule, a.JobID), replacing the previous one.
func (t alertRecords) PutAlert(a model.Alert) error {
	op := fmt.Sprintf("store alert %s of job %s", a.Rule, a.JobID)
	if err := checkAlert(a); err != nil {
		return fmt.Errorf("%s: %w", op, err)
	}
	v, err := encode("alert", a.Key(), a)
	if err != nil {
		return fmt.Errorf("%s: %w", op, err)
	}
	if err := t.put(in(bucketAlerts), []byte(a.Key()), v); err != nil {
		return fmt.Errorf("%s: %w", op, err)
	}
	return nil
}

// DeleteAlert removes the alert of (rule, jobID); a missing one is no error.
func (t alertRecords) DeleteAlert(rule, jobID string) error {
	if err := t.del(in(bucketAlerts), []byte(model.AlertKey(rule, jobID))); err != nil {
		return fmt.Errorf("delete alert %s of job %s: %w", rule, jobID, err)
	}
	return nil
}

// migrateTo2 adds the alerts bucket.
func migrateTo2(tx *bolt.Tx) error {
	if _, err := tx.CreateBucketIfNotExists(bucketAlerts); err != nil {
		return fmt.Errorf("create bucket %s: %w", bucketAlerts, err)
	}
	return nil
}
