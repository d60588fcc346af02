package join

import (
	"database/sql"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"net/url"
	"os"
	"strconv"
	"strings"
	"time"

	"github.com/go-sql-driver/mysql"
	_ "github.com/jackc/pgx/v5/stdlib" // registers "pgx"
	_ "modernc.org/sqlite"             // registers "sqlite"
)

// The databases a lookup reads, and how a JDBC URL names them.

// dialect is what differs between the databases.
type dialect struct {
	name        string // for messages
	driver      string // database/sql driver
	quote       func(string) string
	placeholder func(n int) string // n from 1
}

var (
	postgres = dialect{name: "PostgreSQL", driver: "pgx", quote: quoteDouble, placeholder: func(n int) string { return "$" + strconv.Itoa(n) }}
	mysqlDB  = dialect{name: "MySQL", driver: "mysql", quote: quoteBacktick, placeholder: func(int) string { return "?" }}
	// SQLite reads a "quoted" name that is no column as a string literal;
	// a `quoted` one is always a name.
	sqlite = dialect{name: "SQLite", driver: "sqlite", quote: quoteBacktick, placeholder: func(int) string { return "?" }}
)

// quoteDouble quotes an identifier as PostgreSQL does.
func quoteDouble(id string) string { return `"` + strings.ReplaceAll(id, `"`, `""`) + `"` }

// quoteBacktick quotes an identifier as MySQL and SQLite do.
func quoteBacktick(id string) string { return "`" + strings.ReplaceAll(id, "`", "``") + "`" }

// openDB opens the database a JDBC URL names (connect), connecting within
// connectTimeout and with what its driver would print sent to log.
func openDB(jdbcURL, user, password string, connectTimeout time.Duration, log *slog.Logger) (dialect, *sql.DB, error) {
	d, dsn, err := connectWith(jdbcURL, user, password, connectTimeout)
	if err != nil {
		return d, nil, err
	}
	if d.driver != mysqlDB.driver {
		db, err := sql.Open(d.driver, dsn)
		return d, db, err
	}
	// A logger is no DSN parameter: it goes in through a connector.
	cfg, err := mysql.ParseDSN(dsn)
	if err != nil {
		return d, nil, err
	}
	cfg.Logger = driverLog{log}
	c, err := mysql.NewConnector(cfg)
	if err != nil {
		return d, nil, err
	}
	return d, sql.OpenDB(c), nil
}

// driverLog is a MySQL driver's Logger writing to a slog.Logger (nil:
// nowhere) instead of the driver's own stderr.
type driverLog struct{ log *slog.Logger }

func (l driverLog) Print(v ...any) {
	if l.log != nil {
		l.log.Warn("mysql driver", "message", strings.TrimSpace(fmt.Sprint(v...)))
	}
}

// connect turns a JDBC URL and credentials into a database/sql data source.
func connect(jdbcURL, user, password string) (dialect, string, error) {
	return connectWith(jdbcURL, user, password, 0)
}

func connectWith(jdbcURL, user, password string, connectTimeout time.Duration) (dialect, string, error) {
	rest, ok := strings.CutPrefix(jdbcURL, "jdbc:")
	if !ok {
		return dialect{}, "", errors.New("url does not start with 'jdbc:'")
	}
	scheme, _, _ := strings.Cut(rest, ":")
	switch scheme {
	case "sqlite":
		path := strings.TrimPrefix(rest, "sqlite:")
		if path == "" {
			return dialect{}, "", errors.New("jdbc:sqlite: url names no file")
		}
		// Read-only: a lookup never writes, and SQLite would otherwise
		// create a missing file and then find no table in it.
		if _, err := os.Stat(path); err != nil {
			return dialect{}, "", fmt.Errorf("jdbc:sqlite:%s: no such database file (a lookup reads an existing one)", path)
		}
		// An SQLite URI filename: what would end the path is escaped.
		return sqlite, "file:" + strings.NewReplacer("%", "%25", "?", "%3f", "#", "%23").Replace(path) + "?mode=ro", nil
	case "postgresql", "mysql", "mariadb":
	default:
		return dialect{}, "", fmt.Errorf("unsupported database '%s' (want postgresql, mysql, mariadb or sqlite)", scheme)
	}
	u, err := url.Parse(rest)
	if err != nil {
		return dialect{}, "", fmt.Errorf("url: %w", err)
	}
	if u.Host == "" {
		return dialect{}, "", errors.New("url names no host")
	}
	q := u.Query()
	// JDBC drivers also take the credentials as URL parameters.
	if user == "" {
		user = q.Get("user")
	}
	if password == "" {
		password = q.Get("password")
	}
	db := strings.TrimPrefix(u.Path, "/")
	if scheme == "postgresql" {
		pg := url.URL{Scheme: "postgres", Host: u.Host, Path: "/" + db}
		if user != "" {
			pg.User = url.UserPassword(user, password)
		}
		params := url.Values{}
		for k, vs := range q {
			switch k {
			case "sslmode", "connect_timeout", "application_name", "sslrootcert", "sslcert", "sslkey":
				params[k] = vs
			case "currentSchema":
				params.Set("search_path", q.Get(k))
			case "ssl":
				if q.Get(k) == "true" {
					params.Set("sslmode", "require")
				}
			}
		}
		if connectTimeout > 0 && params.Get("connect_timeout") == "" {
			params.Set("connect_timeout", strconv.Itoa(max(1, int((connectTimeout+time.Second-1)/time.Second))))
		}
		pg.RawQuery = params.Encode()
		return postgres, pg.String(), nil
	}
	cfg := mysql.NewConfig()
	cfg.User, cfg.Passwd, cfg.Net, cfg.DBName = user, password, "tcp", db
	cfg.Addr = u.Host
	if u.Port() == "" {
		cfg.Addr = net.JoinHostPort(u.Hostname(), "3306")
	}
	cfg.ParseTime, cfg.Loc = true, time.UTC
	cfg.Timeout = connectTimeout
	if tz := q.Get("connectionTimeZone"); tz != "" && tz != "UTC" {
		return dialect{}, "", fmt.Errorf("connectionTimeZone=%s: local runs read timestamps as UTC", tz)
	}
	return mysqlDB, cfg.FormatDSN(), nil
}

// selectByKeys is the lookup query of Flink's JDBC connector.
func selectByKeys(d dialect, tableName string, t Table) string {
	var b strings.Builder
	b.WriteString("SELECT ")
	for i, c := range t.Columns {
		if i > 0 {
			b.WriteString(", ")
		}
		b.WriteString(d.quote(c.Name))
	}
	b.WriteString(" FROM ")
	for i, part := range strings.Split(tableName, ".") {
		if i > 0 {
			b.WriteString(".")
		}
		b.WriteString(d.quote(part))
	}
	b.WriteString(" WHERE ")
	for i, k := range t.Keys {
		if i > 0 {
			b.WriteString(" AND ")
		}
		b.WriteString(d.quote(k) + " = " + d.placeholder(i+1))
	}
	return b.String()
}

// placeholders checks that a custom query has one `?` per key, outside
// quotes and comments, and writes them as the database wants them.
func placeholders(query string, d dialect, keys int) (string, error) {
	var b strings.Builder
	n := 0
	for i := 0; i < len(query); i++ {
		c := query[i]
		switch {
		case c == '\'' || c == '"' || c == '`':
			j := i + 1
			for j < len(query) && query[j] != c {
				j++
			}
			if j == len(query) {
				return "", fmt.Errorf("query: unterminated %c", c)
			}
			b.WriteString(query[i : j+1])
			i = j
			continue
		case c == '-' && strings.HasPrefix(query[i:], "--"):
			j := strings.IndexByte(query[i:], '\n')
			if j < 0 {
				j = len(query) - i
			}
			b.WriteString(query[i : i+j])
			i += j - 1
			continue
		case c == '?':
			n++
			b.WriteString(d.placeholder(n))
			continue
		}
		b.WriteByte(c)
	}
	if n != keys {
		return "", fmt.Errorf("query has %d `?` placeholders for %d join keys", n, keys)
	}
	return b.String(), nil
}

// redactURL drops credentials from a JDBC URL, for messages.
func redactURL(jdbcURL string) string {
	base, query, ok := strings.Cut(jdbcURL, "?")
	if at := strings.LastIndex(base, "@"); at >= 0 {
		if i := strings.Index(base, "//"); i >= 0 && i < at {
			base = base[:i+2] + base[at+1:]
		}
	}
	if !ok {
		return base
	}
	var keep []string
	for _, p := range strings.Split(query, "&") {
		k, _, _ := strings.Cut(p, "=")
		if !strings.EqualFold(k, "password") && !strings.EqualFold(k, "user") {
			keep = append(keep, p)
		}
	}
	if len(keep) == 0 {
		return base
	}
	return base + "?" + strings.Join(keep, "&")
}
