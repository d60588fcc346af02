package store

import (
	"context"
	"errors"
	"testing"

	"github.com/palink/palink/model"
)

// contractUDFs: the registry keeps a function under its name across a
// reopen, refuses records a deploy could not use, and removes one once.
func contractUDFs(t *testing.T, open opener) {
	s := open(t)
	defer func() { s.Close() }()
	mask := model.UDF{Name: "mask", Class: "com.example.Mask", Language: model.UDFJava, Jar: "/opt/udf/mask.jar",
		Signature: "(STRING) -> STRING", Author: "ana", CreatedAt: t0}
	update(t, s, func(tx Tx) error { return tx.PutUDF(mask) })
	for _, bad := range []model.UDF{
		{Name: "1mask", Class: "C", Language: model.UDFJava, Jar: "/x.jar"},
		{Name: "mask", Language: model.UDFJava, Jar: "/x.jar"},
		{Name: "mask", Class: "C", Language: "go", Jar: "/x.jar"},
		{Name: "mask", Class: "C", Language: model.UDFJava},
		{Name: "mask", Class: "C", Language: model.UDFJava, Jar: "/x.jar", Project: "p"},
	} {
		err := s.Update(context.Background(), func(tx Tx) error { return tx.PutUDF(bad) })
		if !errors.Is(err, ErrInvalid) {
			t.Errorf("PutUDF(%+v) = %v, want ErrInvalid", bad, err)
		}
	}
	s = reopen(t, s, open)
	view(t, s, func(tx ReadTx) error {
		got, err := tx.UDF("mask")
		if err != nil || got.Class != "com.example.Mask" || got.Signature != "(STRING) -> STRING" {
			t.Errorf("UDF(mask) = %+v, %v", got, err)
		}
		if _, err := tx.UDF("nope"); !errors.Is(err, ErrNotFound) {
			t.Errorf("UDF(nope) = %v, want ErrNotFound", err)
		}
		return nil
	})
	update(t, s, func(tx Tx) error { return tx.DeleteUDF("mask") })
	if err := s.Update(context.Background(), func(tx Tx) error { return tx.DeleteUDF("mask") }); !errors.Is(err, ErrNotFound) {
		t.Errorf("a second DeleteUDF = %v, want ErrNotFound", err)
	}
	view(t, s, func(tx ReadTx) error {
		if list, err := tx.UDFs(); err != nil || len(list) != 0 || list == nil {
			t.Errorf("UDFs after the removal = %#v, %v; want an empty list", list, err)
		}
		return nil
	})
}
