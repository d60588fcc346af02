package store

import (
	"errors"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/palink/palink/model"
)

func sampleException(jobID string, min int, name string) model.JobException {
	return model.JobException{JobID: jobID, Time: t0.Add(time.Duration(min) * time.Minute), Name: name,
		Stacktrace: name + ": boom\n\tat a.B.c(B.java:1)\n", Task: "Map (1/2)#0", TaskManager: "container_1_0001_01_000002",
		Labels: map[string]string{"type": "USER"}, SeenAt: t0}
}

func contractExceptions(t *testing.T, open opener) {
	s := open(t)
	defer func() { s.Close() }()
	update(t, s, func(tx Tx) error { return tx.CreateJob(sampleJob("j1", "a")) })
	names := func(es []model.JobException) string {
		var out []string
		for _, e := range es {
			out = append(out, fmt.Sprintf("%s@%d", e.Name, int(e.Time.Sub(t0).Minutes())))
		}
		return strings.Join(out, " ")
	}
	var added int
	update(t, s, func(tx Tx) (err error) {
		added, err = tx.AddExceptions("j1", []model.JobException{sampleException("", 1, "java.io.IOException"),
			sampleException("j1", 3, "java.util.concurrent.TimeoutException"), sampleException("j1", 2, "java.lang.NullPointerException")})
		return err
	})
	if added != 3 {
		t.Fatalf("added %d, want 3", added)
	}
	// A second sync that sees the same failures and one new one keeps one
	// of each.
	update(t, s, func(tx Tx) (err error) {
		added, err = tx.AddExceptions("j1", []model.JobException{sampleException("j1", 3, "java.util.concurrent.TimeoutException"),
			sampleException("j1", 3, "org.apache.flink.runtime.JobException"), sampleException("j1", 1, "java.io.IOException")})
		return err
	})
	s = reopen(t, s, open)
	view(t, s, func(tx ReadTx) error {
		es, err := tx.Exceptions("j1")
		want := "org.apache.flink.runtime.JobException@3 java.util.concurrent.TimeoutException@3 java.lang.NullPointerException@2 java.io.IOException@1"
		if err != nil || added != 1 || names(es) != want {
			t.Fatalf("after a second sync and a reopen: %d added, %q, %v; want newest first %q", added, names(es), err, want)
		}
		if es[3].JobID != "j1" || es[3].Labels["type"] != "USER" || es[3].TaskManager == "" {
			t.Errorf("stored exception %+v", es[3])
		}
		return nil
	})

	// Bounded: the newest MaxStoredExceptions, each trace cut with its
	// causes kept.
	long := strings.Repeat("\tat org.example.Deep.frame(Deep.java:1)\n", 4000) + "Caused by: java.util.concurrent.TimeoutException: Async function call has timed out.\n\tat x.Y.z(Y.java:2)\n"
	update(t, s, func(tx Tx) error {
		var batch []model.JobException
		for i := 0; i < model.MaxStoredExceptions+20; i++ {
			e := sampleException("j1", 100+i, "java.lang.RuntimeException")
			if i == model.MaxStoredExceptions+19 {
				e.Stacktrace = "java.lang.Exception: wrapper\n" + long
				for k := 0; k < 20; k++ {
					e.Concurrent = append(e.Concurrent, sampleException("j1", 100+i, "java.lang.RuntimeException"))
				}
			}
			batch = append(batch, e)
		}
		_, err := tx.AddExceptions("j1", batch)
		return err
	})
	view(t, s, func(tx ReadTx) error {
		es, err := tx.Exceptions("j1")
		if err != nil || len(es) != model.MaxStoredExceptions {
			t.Fatalf("%d kept, %v; want %d", len(es), err, model.MaxStoredExceptions)
		}
		newest := es[0]
		if newest.Time != t0.Add(time.Duration(100+model.MaxStoredExceptions+19)*time.Minute) || len(newest.Stacktrace) > model.MaxStoredTrace ||
			!newest.TraceTruncated || !strings.Contains(newest.Stacktrace, "Caused by: java.util.concurrent.TimeoutException: Async function call has timed out.") ||
			len(newest.Concurrent) != model.MaxStoredConcurrent {
			t.Errorf("the newest is not kept whole enough: %d bytes, cut %v, %d concurrent", len(newest.Stacktrace), newest.TraceTruncated, len(newest.Concurrent))
		}
		return nil
	})

	err := s.Update(t.Context(), func(tx Tx) error {
		_, err := tx.AddExceptions("nope", []model.JobException{sampleException("nope", 1, "x")})
		return err
	})
	wantErr(t, err, ErrNotFound, "nope")
	err = s.Update(t.Context(), func(tx Tx) error {
		_, err := tx.AddExceptions("j1", []model.JobException{{Name: "no time"}})
		return err
	})
	wantErr(t, err, ErrInvalid)
	// One failure twice in a batch is kept once; an invalid one stops the
	// batch where it stands, the ones before it counted.
	update(t, s, func(tx Tx) error {
		twice := sampleException("j1", 5000, "java.io.EOFException")
		n, err := tx.AddExceptions("j1", []model.JobException{twice, twice, sampleException("j1", 5001, "x"), {Name: "no time"}, sampleException("j1", 5002, "y")})
		if n != 2 || !errors.Is(err, ErrInvalid) {
			t.Errorf("AddExceptions of a repeat and an invalid one = %d, %v; want 2 and ErrInvalid", n, err)
		}
		return nil
	})
	err = s.View(t.Context(), func(tx ReadTx) error { _, err := tx.Exceptions("nope"); return err })
	wantErr(t, err, ErrNotFound)
}
