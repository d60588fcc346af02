//go:build tools

// Package tools pins the modules palink's packages are built on, so that
// `go mod tidy` keeps them while the packages that use them are being written.
package tools

import (
	_ "charm.land/bubbles/v2/table"
	_ "charm.land/bubbletea/v2"
	_ "charm.land/lipgloss/v2"
	_ "github.com/alecthomas/chroma/v2"
	_ "github.com/charmbracelet/x/exp/teatest/v2"
	_ "github.com/getkin/kin-openapi/openapi3"
	_ "github.com/go-resty/resty/v2"
	_ "github.com/go-sql-driver/mysql"
	_ "github.com/jackc/pgx/v5/stdlib"
	_ "github.com/sergi/go-diff/diffmatchpatch"
	_ "github.com/spf13/cobra"
	_ "go.etcd.io/bbolt"
	_ "go.yaml.in/yaml/v3"
	_ "modernc.org/sqlite"
	_ "pgregory.net/rapid"
)
