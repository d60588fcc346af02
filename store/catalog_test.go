package store

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/palink/palink/model"
)

func contractCatalog(t *testing.T, open opener) {
	s := open(t)
	defer func() { s.Close() }()
	users := model.CatalogTable{Cluster: "prod", Name: "users", SQL: "CREATE TABLE users (id BIGINT) WITH ('connector' = 'datagen')", Author: "ana", CreatedAt: t0}
	var v1, v2 model.CatalogTable
	update(t, s, func(tx Tx) (err error) {
		if v1, err = tx.PutCatalogTable(users); err != nil {
			return err
		}
		users.SQL, users.Note = "CREATE TABLE users (id BIGINT, name STRING) WITH ('connector' = 'datagen')", "name"
		if v2, err = tx.PutCatalogTable(users); err != nil {
			return err
		}
		_, err = tx.PutCatalogTable(model.CatalogTable{Cluster: "test", Name: "users", SQL: "CREATE TABLE users (x INT) WITH ('connector' = 'datagen')"})
		return err
	})
	if v1.Version != 1 || v2.Version != 2 {
		t.Fatalf("versions %d and %d, want 1 and 2", v1.Version, v2.Version)
	}
	// Invalid records are refused, and change nothing.
	for _, bad := range []model.CatalogTable{
		{Name: "users", SQL: "x"},
		{Cluster: "prod", Name: "1users", SQL: "x"},
		{Cluster: "prod", Name: "a.b", SQL: "x"},
		{Cluster: "prod", Name: "users"},
	} {
		err := s.Update(context.Background(), func(tx Tx) error { _, err := tx.PutCatalogTable(bad); return err })
		if !errors.Is(err, ErrInvalid) {
			t.Errorf("PutCatalogTable(%+v) = %v, want ErrInvalid", bad, err)
		}
	}
	s = reopen(t, s, open)
	view(t, s, func(tx ReadTx) error {
		list, err := tx.CatalogTables("prod")
		if err != nil || len(list) != 1 || list[0].Version != 2 || list[0].Note != "name" {
			t.Errorf("CatalogTables(prod) = %+v, %v; want users v2", list, err)
		}
		if list, err := tx.CatalogTables("nowhere"); err != nil || len(list) != 0 || list == nil {
			t.Errorf("CatalogTables(nowhere) = %#v, %v; want an empty list", list, err)
		}
		if got, err := tx.CatalogTable("prod", "users", 1); err != nil || got.SQL != v1.SQL {
			t.Errorf("CatalogTable(prod, users, 1) = %+v, %v", got, err)
		}
		if got, err := tx.CatalogTable("prod", "users", 0); err != nil || got.Version != 2 {
			t.Errorf("CatalogTable(prod, users, 0) = %+v, %v", got, err)
		}
		if _, err := tx.CatalogTable("prod", "users", 3); !errors.Is(err, ErrNotFound) {
			t.Errorf("CatalogTable(prod, users, 3) = %v, want ErrNotFound", err)
		}
		if vs, err := tx.CatalogVersions("prod", "users"); err != nil || len(vs) != 2 || vs[0].Version != 1 {
			t.Errorf("CatalogVersions = %+v, %v", vs, err)
		}
		return nil
	})
	update(t, s, func(tx Tx) error { return tx.DeleteCatalogTable("prod", "users") })
	if err := s.Update(context.Background(), func(tx Tx) error { return tx.DeleteCatalogTable("prod", "users") }); !errors.Is(err, ErrNotFound) {
		t.Errorf("second delete = %v, want ErrNotFound", err)
	}
	view(t, s, func(tx ReadTx) error {
		if _, err := tx.CatalogTable("prod", "users", 0); !errors.Is(err, ErrNotFound) {
			t.Errorf("after delete: %v, want ErrNotFound", err)
		}
		if list, _ := tx.CatalogTables("test"); len(list) != 1 {
			t.Errorf("the other cluster's table went too: %+v", list)
		}
		return nil
	})
}

func contractVars(t *testing.T, open opener) {
	s := open(t)
	defer func() { s.Close() }()
	update(t, s, func(tx Tx) error {
		for _, v := range []model.Variable{
			{Cluster: "prod", Name: "db_url", Value: "jdbc:postgresql://prod/app"},
			{Name: "db_url", Value: "jdbc:postgresql://test/app"},
			{Name: "db_pass", SecretEnv: "DB_PASS"},
			{Cluster: "prod", Name: "db_pass", SecretFile: "/etc/palink/db_pass"},
		} {
			if err := tx.PutVar(v); err != nil {
				return err
			}
		}
		return tx.PutVar(model.Variable{Cluster: "prod", Name: "db_url", Value: "jdbc:postgresql://prod2/app"})
	})
	for _, bad := range []model.Variable{
		{Name: "a-b", Value: "x"},
		{Name: "p", SecretEnv: "P", Value: "leaked"},
		{Name: "p", SecretEnv: "P", SecretFile: "/f"},
		{Name: "p", SecretFile: "/f", SecretCmd: "cat /f"},
	} {
		if err := s.Update(context.Background(), func(tx Tx) error { return tx.PutVar(bad) }); !errors.Is(err, ErrInvalid) {
			t.Errorf("PutVar(%+v) = %v, want ErrInvalid", bad, err)
		}
	}
	s = reopen(t, s, open)
	view(t, s, func(tx ReadTx) error {
		vs, err := tx.Vars()
		var got []string
		for _, v := range vs {
			got = append(got, v.Cluster+"/"+v.Name+"="+v.Shown())
		}
		want := "/db_pass=•••• (env DB_PASS) /db_url=jdbc:postgresql://test/app prod/db_pass=•••• (file /etc/palink/db_pass) prod/db_url=jdbc:postgresql://prod2/app"
		if err != nil || strings.Join(got, " ") != want {
			t.Errorf("Vars = %v, %v\nwant %s", got, err, want)
		}
		return nil
	})
	update(t, s, func(tx Tx) error { return tx.DeleteVar("", "db_url") })
	if err := s.Update(context.Background(), func(tx Tx) error { return tx.DeleteVar("", "db_url") }); !errors.Is(err, ErrNotFound) {
		t.Errorf("second delete = %v, want ErrNotFound", err)
	}
}
