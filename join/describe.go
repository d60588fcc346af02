package join

import (
	"context"
	"database/sql"
	"fmt"
	"net/url"
	"strings"
)

// Describing a database table as a Flink JDBC table (palink table import):
// its columns with their Flink types, per the type mapping of Flink's JDBC
// connector, and its primary key.

// DescribedColumn is one column of a described table.
type DescribedColumn struct {
	Name    string
	DBType  string // as the database names it: "integer", "varchar(64)", "tinyint(1) unsigned"
	Flink   string // the Flink type: "INT", "DECIMAL(10, 2)"
	NotNull bool
	// Warning says why Flink's type is not the database's (a type the
	// JDBC connector does not map, read as STRING), "" when it is.
	Warning string
}

// Described is a table as its database describes it.
type Described struct {
	Database   string // PostgreSQL or MySQL
	Table      string // as asked for: "users" or "public.users"
	Columns    []DescribedColumn
	PrimaryKey []string
}

// Describe reads a table's columns and primary key from the database a
// JDBC URL names (credentials in user and password, or the URL's own
// parameters). table may be schema-qualified ("public.users") in
// PostgreSQL. A table that does not exist is an error naming it.
func Describe(ctx context.Context, jdbcURL, user, password, table string) (Described, error) {
	d, dsn, err := connect(jdbcURL, user, password)
	if err != nil {
		return Described{}, fmt.Errorf("describe %s: %w", table, err)
	}
	if d.driver == sqlite.driver {
		return Described{}, fmt.Errorf("describe %s: SQLite is for local debug runs; import from PostgreSQL or MySQL", table)
	}
	db, err := sql.Open(d.driver, dsn)
	if err != nil {
		return Described{}, fmt.Errorf("describe %s: %w", table, err)
	}
	defer db.Close()
	out := Described{Database: d.name, Table: table}
	if d.driver == postgres.driver {
		err = describePostgres(ctx, db, table, &out)
	} else {
		err = describeMySQL(ctx, db, table, &out)
	}
	if err != nil {
		return Described{}, fmt.Errorf("describe %s in %s: %w", table, d.name, err)
	}
	if len(out.Columns) == 0 {
		return Described{}, fmt.Errorf("describe %s in %s: no such table (or no column visible to this user)", table, d.name)
	}
	return out, nil
}

func describePostgres(ctx context.Context, db *sql.DB, table string, out *Described) error {
	schema, name, ok := strings.Cut(table, ".")
	if !ok {
		schema, name = "", table
	}
	const cols = `SELECT c.column_name, c.data_type, c.udt_name, c.character_maximum_length, c.numeric_precision, c.numeric_scale,
		c.datetime_precision, c.is_nullable
	FROM information_schema.columns c
	WHERE c.table_schema = COALESCE(NULLIF($1, ''), current_schema()) AND c.table_name = $2
	ORDER BY c.ordinal_position`
	rows, err := db.QueryContext(ctx, cols, schema, name)
	if err != nil {
		return err
	}
	defer rows.Close()
	for rows.Next() {
		var (
			col, dataType, udt, nullable string
			length, prec, scale, dtPrec  sql.NullInt64
		)
		if err := rows.Scan(&col, &dataType, &udt, &length, &prec, &scale, &dtPrec, &nullable); err != nil {
			return err
		}
		c := DescribedColumn{Name: col, NotNull: nullable == "NO"}
		c.DBType, c.Flink, c.Warning = postgresType(dataType, udt, length, prec, scale, dtPrec)
		out.Columns = append(out.Columns, c)
	}
	if err := rows.Err(); err != nil {
		return err
	}
	const pk = `SELECT k.column_name
	FROM information_schema.table_constraints t
	JOIN information_schema.key_column_usage k
	  ON k.constraint_name = t.constraint_name AND k.table_schema = t.table_schema AND k.table_name = t.table_name
	WHERE t.constraint_type = 'PRIMARY KEY' AND t.table_schema = COALESCE(NULLIF($1, ''), current_schema()) AND t.table_name = $2
	ORDER BY k.ordinal_position`
	return readKey(ctx, db, pk, out, schema, name)
}

func readKey(ctx context.Context, db *sql.DB, query string, out *Described, args ...any) error {
	rows, err := db.QueryContext(ctx, query, args...)
	if err != nil {
		return err
	}
	defer rows.Close()
	for rows.Next() {
		var c string
		if err := rows.Scan(&c); err != nil {
			return err
		}
		out.PrimaryKey = append(out.PrimaryKey, c)
	}
	return rows.Err()
}

// postgresType maps a PostgreSQL column type as Flink's JDBC connector
// reads it (its PostgreSQL type mapping).
func postgresType(dataType, udt string, length, prec, scale, dtPrec sql.NullInt64) (db, flink, warning string) {
	db = dataType
	switch udt {
	case "int2":
		return db, "SMALLINT", ""
	case "int4":
		return db, "INT", ""
	case "int8":
		return db, "BIGINT", ""
	case "float4":
		return db, "FLOAT", ""
	case "float8":
		return db, "DOUBLE", ""
	case "numeric":
		if prec.Valid {
			db = fmt.Sprintf("numeric(%d,%d)", prec.Int64, scale.Int64)
			return db, fmt.Sprintf("DECIMAL(%d, %d)", prec.Int64, scale.Int64), ""
		}
		return db, "DECIMAL(38, 18)", "numeric without a precision: read as DECIMAL(38, 18), the widest Flink has"
	case "bool":
		return db, "BOOLEAN", ""
	case "date":
		return db, "DATE", ""
	case "time":
		return db, fmt.Sprintf("TIME(%d)", dtPrec.Int64), ""
	case "timestamp":
		return db, fmt.Sprintf("TIMESTAMP(%d)", dtPrec.Int64), ""
	case "bpchar", "varchar":
		if length.Valid {
			db = fmt.Sprintf("%s(%d)", dataType, length.Int64)
		}
		return db, "STRING", ""
	case "text":
		return db, "STRING", ""
	case "bytea":
		return db, "BYTES", ""
	}
	if dataType == "ARRAY" {
		// information_schema says nothing of the element's precision:
		// Flink's (and PostgreSQL's) defaults.
		elems := map[string]string{"int2": "SMALLINT", "int4": "INT", "int8": "BIGINT", "float4": "FLOAT", "float8": "DOUBLE",
			"numeric": "DECIMAL(38, 18)", "bool": "BOOLEAN", "date": "DATE", "time": "TIME(6)", "timestamp": "TIMESTAMP(6)",
			"bpchar": "STRING", "varchar": "STRING", "text": "STRING", "bytea": "BYTES"}
		elem := strings.TrimPrefix(udt, "_")
		if f, ok := elems[elem]; ok {
			return elem + "[]", "ARRAY<" + f + ">", ""
		}
		return elem + "[]", "STRING", fmt.Sprintf("%s[] is an array of a type Flink's JDBC connector does not map; read as STRING", elem)
	}
	if dataType == "USER-DEFINED" {
		db = udt
	}
	return db, "STRING", fmt.Sprintf("%s is not a type Flink's JDBC connector maps; read as STRING", db)
}

func describeMySQL(ctx context.Context, db *sql.DB, table string, out *Described) error {
	const cols = `SELECT COLUMN_NAME, DATA_TYPE, COLUMN_TYPE, NUMERIC_PRECISION, NUMERIC_SCALE, DATETIME_PRECISION, IS_NULLABLE
	FROM information_schema.COLUMNS
	WHERE TABLE_SCHEMA = DATABASE() AND TABLE_NAME = ?
	ORDER BY ORDINAL_POSITION`
	rows, err := db.QueryContext(ctx, cols, table)
	if err != nil {
		return err
	}
	defer rows.Close()
	for rows.Next() {
		var (
			col, dataType, colType, nullable string
			prec, scale, dtPrec              sql.NullInt64
		)
		if err := rows.Scan(&col, &dataType, &colType, &prec, &scale, &dtPrec, &nullable); err != nil {
			return err
		}
		c := DescribedColumn{Name: col, NotNull: nullable == "NO", DBType: colType}
		c.Flink, c.Warning = mysqlType(strings.ToLower(dataType), strings.ToLower(colType), prec, scale, dtPrec)
		out.Columns = append(out.Columns, c)
	}
	if err := rows.Err(); err != nil {
		return err
	}
	const pk = `SELECT COLUMN_NAME FROM information_schema.KEY_COLUMN_USAGE
	WHERE TABLE_SCHEMA = DATABASE() AND TABLE_NAME = ? AND CONSTRAINT_NAME = 'PRIMARY'
	ORDER BY ORDINAL_POSITION`
	return readKey(ctx, db, pk, out, table)
}

// mysqlType maps a MySQL (MariaDB) column type as Flink's JDBC connector
// reads it (its MySQL type mapping).
func mysqlType(dataType, colType string, prec, scale, dtPrec sql.NullInt64) (flink, warning string) {
	unsigned := strings.Contains(colType, "unsigned")
	switch dataType {
	case "tinyint":
		switch {
		case strings.HasPrefix(colType, "tinyint(1)") && !unsigned:
			return "BOOLEAN", ""
		case unsigned:
			return "SMALLINT", ""
		}
		return "TINYINT", ""
	case "smallint":
		if unsigned {
			return "INT", ""
		}
		return "SMALLINT", ""
	case "mediumint":
		return "INT", ""
	case "int", "integer":
		if unsigned {
			return "BIGINT", ""
		}
		return "INT", ""
	case "bigint":
		if unsigned {
			return "DECIMAL(20, 0)", ""
		}
		return "BIGINT", ""
	case "float":
		return "FLOAT", ""
	case "double", "real":
		return "DOUBLE", ""
	case "decimal", "numeric":
		return fmt.Sprintf("DECIMAL(%d, %d)", prec.Int64, scale.Int64), ""
	case "boolean", "bool":
		return "BOOLEAN", ""
	case "date":
		return "DATE", ""
	case "time":
		return fmt.Sprintf("TIME(%d)", dtPrec.Int64), ""
	case "datetime", "timestamp":
		return fmt.Sprintf("TIMESTAMP(%d)", dtPrec.Int64), ""
	case "char", "varchar", "tinytext", "text", "mediumtext", "longtext":
		return "STRING", ""
	case "binary", "varbinary", "tinyblob", "blob", "mediumblob", "longblob":
		return "BYTES", ""
	}
	return "STRING", fmt.Sprintf("%s is not a type Flink's JDBC connector maps; read as STRING", colType)
}

// DDL writes the described table as a Flink CREATE TABLE named name for
// the JDBC connector: 'url' without credentials, 'username' as given, and
// a password only as the variable ${password}, which palink resolves per
// cluster (never written into the catalog). Warnings name each column
// whose type Flink's JDBC connector does not map.
func (d Described) DDL(name, jdbcURL, user, passwordVar string) (string, []string) {
	var b strings.Builder
	var warnings []string
	fmt.Fprintf(&b, "CREATE TABLE %s (\n", quoteBacktick(name))
	for _, c := range d.Columns {
		fmt.Fprintf(&b, "  %s %s", quoteBacktick(c.Name), c.Flink)
		if c.NotNull {
			b.WriteString(" NOT NULL")
		}
		b.WriteString(",\n")
		if c.Warning != "" {
			warnings = append(warnings, fmt.Sprintf("column %s: %s", c.Name, c.Warning))
		}
	}
	if len(d.PrimaryKey) > 0 {
		keys := make([]string, len(d.PrimaryKey))
		for i, k := range d.PrimaryKey {
			keys[i] = quoteBacktick(k)
		}
		fmt.Fprintf(&b, "  PRIMARY KEY (%s) NOT ENFORCED\n", strings.Join(keys, ", "))
	} else {
		s := b.String()
		b.Reset()
		b.WriteString(strings.TrimSuffix(s, ",\n") + "\n")
		warnings = append(warnings, fmt.Sprintf("%s has no primary key: a lookup join on it is fine, an upsert sink is not", d.Table))
	}
	opts := [][2]string{{"connector", "jdbc"}, {"url", jdbcURL}, {"table-name", d.Table}}
	if user != "" {
		opts = append(opts, [2]string{"username", user})
	}
	if passwordVar != "" {
		opts = append(opts, [2]string{"password", "${" + passwordVar + "}"})
	}
	b.WriteString(") WITH (\n")
	for i, o := range opts {
		fmt.Fprintf(&b, "  '%s' = '%s'", o[0], strings.ReplaceAll(o[1], "'", "''"))
		if i < len(opts)-1 {
			b.WriteString(",")
		}
		b.WriteString("\n")
	}
	b.WriteString(")")
	return b.String(), warnings
}

// SplitCredentials takes the user and password out of a JDBC URL's
// parameters: the URL a DDL keeps, and the credentials to connect with.
func SplitCredentials(jdbcURL string) (clean, user, password string) {
	base, query, ok := strings.Cut(jdbcURL, "?")
	if !ok {
		return jdbcURL, "", ""
	}
	var keep []string
	for _, kv := range strings.Split(query, "&") {
		k, v, _ := strings.Cut(kv, "=")
		switch k {
		case "user":
			user = unescape(v)
		case "password":
			password = unescape(v)
		default:
			if kv != "" {
				keep = append(keep, kv)
			}
		}
	}
	if len(keep) == 0 {
		return base, user, password
	}
	return base + "?" + strings.Join(keep, "&"), user, password
}

func unescape(s string) string {
	if u, err := url.QueryUnescape(s); err == nil {
		return u
	}
	return s
}
