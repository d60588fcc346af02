package join

import (
	"bytes"
	"context"
	"log/slog"
	"net"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"
)

// A lookup against an SQLite file that does not exist says so, and leaves
// no empty database behind (SQLite would make one, then find no table).
func TestSQLiteLookupOfAMissingFile(t *testing.T) {
	path := filepath.Join(t.TempDir(), "dim.db")
	opts := SourceOptions{Connector: ConnectorJDBC, URL: "jdbc:sqlite:" + path, TableName: "users"}
	_, err := OpenSource(context.Background(), opts, usersTable("users"), 1)
	if err == nil || !strings.Contains(err.Error(), "jdbc:sqlite:"+path+": no such database file") {
		t.Fatalf("error %v, want it to say the file is missing", err)
	}
	if _, err := os.Stat(path); !os.IsNotExist(err) {
		t.Errorf("the lookup made %s: %v", path, err)
	}
}

// A MySQL server that accepts and never answers fails the open within the
// lookup's timeout, saying so; one that hangs up at once has the driver's
// complaint go to the run's log, not to palink's stderr.
func TestMySQLUnreachable(t *testing.T) {
	silent, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer silent.Close()
	go func() {
		// Connections are held open, never answered, until the listener
		// closes.
		var held []net.Conn
		defer func() {
			for _, c := range held {
				c.Close()
			}
		}()
		for {
			c, err := silent.Accept()
			if err != nil {
				return
			}
			held = append(held, c)
		}
	}()
	opts := SourceOptions{Connector: ConnectorJDBC, URL: "jdbc:mysql://" + silent.Addr().String() + "/shop", TableName: "users",
		ConnectTimeout: 300 * time.Millisecond}
	start := time.Now()
	_, err = OpenSource(context.Background(), opts, usersTable("users"), 1)
	if took := time.Since(start); err == nil || took > 5*time.Second || !strings.Contains(err.Error(), "MySQL did not answer within 300ms (the lookup timeout)") {
		t.Fatalf("after %s: %v", took, err)
	}

	hangup, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer hangup.Close()
	go func() {
		for {
			c, err := hangup.Accept()
			if err != nil {
				return
			}
			// A greeting cut short: the driver complains of it.
			_, _ = c.Write([]byte{0x4a, 0, 0, 0, 10, '8'})
			c.Close()
		}
	}()
	logged := &lockedBuffer{}
	opts.URL, opts.Log = "jdbc:mysql://"+hangup.Addr().String()+"/shop", slog.New(slog.NewTextHandler(logged, nil))
	if _, err := OpenSource(context.Background(), opts, usersTable("users"), 1); err == nil {
		t.Fatal("opened a lookup on a server that hung up")
	}
	if !strings.Contains(logged.String(), "mysql driver") {
		t.Errorf("the driver's complaint did not reach the run's log: %q", logged.String())
	}
}

// lockedBuffer is a buffer the driver's goroutines may write while the
// test reads it.
type lockedBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (l *lockedBuffer) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.Write(p)
}

func (l *lockedBuffer) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.String()
}
