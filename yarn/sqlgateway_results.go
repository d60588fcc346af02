package yarn

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"strconv"
	"strings"
)

// Result types of a fetch.
const (
	ResultNotReady = "NOT_READY"
	ResultPayload  = "PAYLOAD"
	ResultEOS      = "EOS"
)

// Column describes one result column.
type Column struct {
	Name        string      `json:"name"`
	LogicalType LogicalType `json:"logicalType"`
	Comment     string      `json:"comment"`
}

// LogicalType is a column's Flink type as the gateway serialises it
// ({"type":"BIGINT","nullable":false,…}); Raw keeps the whole object
// (length, precision, fields of a ROW …).
type LogicalType struct {
	Type     string          `json:"type"`
	Nullable bool            `json:"nullable"`
	Raw      json.RawMessage `json:"-"`
}

// UnmarshalJSON reads the serialised logical type; the OpenAPI spec's
// "typeRoot" is accepted as well as the wire's "type".
func (t *LogicalType) UnmarshalJSON(b []byte) error {
	if bytes.Equal(bytes.TrimSpace(b), []byte("null")) {
		*t = LogicalType{}
		return nil
	}
	var w struct {
		Type     string `json:"type"`
		TypeRoot string `json:"typeRoot"`
		Nullable *bool  `json:"nullable"`
	}
	if err := json.Unmarshal(b, &w); err != nil {
		return err
	}
	t.Type = w.Type
	if t.Type == "" {
		t.Type = w.TypeRoot
	}
	t.Nullable = w.Nullable == nil || *w.Nullable
	t.Raw = append(json.RawMessage(nil), b...)
	return nil
}

// MarshalJSON writes the type back as received.
func (t LogicalType) MarshalJSON() ([]byte, error) {
	if len(t.Raw) > 0 {
		return t.Raw, nil
	}
	return json.Marshal(map[string]any{"type": t.Type, "nullable": t.Nullable})
}

// String is the type as SQL shows it ("BIGINT NOT NULL").
func (t LogicalType) String() string {
	if t.Nullable || t.Type == "" {
		return t.Type
	}
	return t.Type + " NOT NULL"
}

// Row is one result row. Kind is the change it carries (INSERT,
// UPDATE_BEFORE, UPDATE_AFTER, DELETE). With the JSON row format, Fields
// hold JSON values (numbers as json.Number, so BIGINTs keep every digit);
// with PLAIN_TEXT they are strings.
type Row struct {
	Kind   string `json:"kind"`
	Fields []any  `json:"fields"`
}

// ResultPage is one fetch of an operation's results.
type ResultPage struct {
	Type      string // NOT_READY, PAYLOAD, EOS
	IsQuery   bool
	JobID     string
	Kind      string // SUCCESS, SUCCESS_WITH_CONTENT
	Columns   []Column
	RowFormat string
	Rows      []Row
	// NextURI is the next page's path, empty at the end.
	NextURI string
}

// fetchWire is the fetch response as FetchResultsResponseBodySerializer
// writes it; the spec's names (queryResult, columnInfos) are read too.
type fetchWire struct {
	ResultType    string `json:"resultType"`
	IsQueryResult *bool  `json:"isQueryResult"`
	QueryResult   *bool  `json:"queryResult"`
	JobID         string `json:"jobID"`
	ResultKind    string `json:"resultKind"`
	Results       *struct {
		Columns     []Column `json:"columns"`
		ColumnInfos []Column `json:"columnInfos"`
		RowFormat   string   `json:"rowFormat"`
		Data        []struct {
			Kind   string            `json:"kind"`
			Fields []json.RawMessage `json:"fields"`
		} `json:"data"`
	} `json:"results"`
	NextResultURI string `json:"nextResultUri"`
}

// decodeFetch turns a fetch body into a page.
func decodeFetch(body []byte) (ResultPage, error) {
	var w fetchWire
	if err := json.Unmarshal(body, &w); err != nil {
		return ResultPage{}, err
	}
	switch w.ResultType {
	case ResultNotReady, ResultPayload, ResultEOS:
	default:
		return ResultPage{}, fmt.Errorf("unknown resultType %q", clip(w.ResultType, 40))
	}
	pg := ResultPage{Type: w.ResultType, JobID: w.JobID, Kind: w.ResultKind, NextURI: w.NextResultURI}
	switch {
	case w.IsQueryResult != nil:
		pg.IsQuery = *w.IsQueryResult
	case w.QueryResult != nil:
		pg.IsQuery = *w.QueryResult
	}
	if w.Results != nil {
		pg.Columns = w.Results.Columns
		if pg.Columns == nil {
			pg.Columns = w.Results.ColumnInfos
		}
		pg.RowFormat = w.Results.RowFormat
		for _, d := range w.Results.Data {
			row := Row{Kind: d.Kind, Fields: make([]any, len(d.Fields))}
			for i, f := range d.Fields {
				dec := json.NewDecoder(bytes.NewReader(f))
				dec.UseNumber()
				if err := dec.Decode(&row.Fields[i]); err != nil {
					return ResultPage{}, fmt.Errorf("row %d field %d: %w", len(pg.Rows), i, err)
				}
			}
			pg.Rows = append(pg.Rows, row)
		}
	}
	return pg, nil
}

// resultPath is the fetch path of token for the negotiated version, with
// rowFormat=JSON from v2 on (required there, unknown in v1).
func (c *SQLGateway) resultPath(ctx context.Context, session, op string, token int64) (string, error) {
	p, v, err := c.vpath(ctx, sessionPath(session, "operations", pathEscape(op), "result", strconv.FormatInt(token, 10)))
	if err != nil {
		return "", err
	}
	if v >= 2 {
		p += "?rowFormat=JSON"
	}
	return p, nil
}

// FetchPage fetches one page of an operation's results by token (the
// first is 0).
func (c *SQLGateway) FetchPage(ctx context.Context, session, op string, token int64) (ResultPage, error) {
	p, err := c.resultPath(ctx, session, op, token)
	if err != nil {
		return ResultPage{}, err
	}
	return c.fetchURI(ctx, p)
}

// fetchURI fetches a page by path (as nextResultUri gives it, resolved
// under the base's path).
func (c *SQLGateway) fetchURI(ctx context.Context, p string) (ResultPage, error) {
	r := request{method: http.MethodGet, path: p}
	resp, err := c.t.do(ctx, c.base, r)
	if err != nil {
		return ResultPage{}, err
	}
	if err := expect(r.method, resp, http.StatusOK); err != nil {
		return ResultPage{}, err
	}
	pg, err := decodeFetch(resp.body)
	if err != nil {
		return ResultPage{}, &DecodeError{Method: r.method, URL: resp.url, Status: resp.status,
			What: "fetch results", Err: err, Excerpt: excerptAround(resp.body, err)}
	}
	return pg, nil
}

// Result is an operation's results gathered over pages.
type Result struct {
	Columns []Column
	Rows    []Row
	JobID   string // the Flink job the statement submitted, if any
	IsQuery bool
	Kind    string
	// Truncated reports that the row limit stopped the fetch before the end.
	Truncated bool
}

// FetchAll fetches an operation's results from token 0, following
// nextResultUri until EOS, waiting (PollInterval, doubling) while the
// gateway answers NOT_READY or an empty page. maxRows > 0 stops after that
// many rows with Truncated set; with 0, an unbounded streaming query is
// read until ctx ends.
func (c *SQLGateway) FetchAll(ctx context.Context, session, op string, maxRows int) (Result, error) {
	var res Result
	next, err := c.resultPath(ctx, session, op, 0)
	if err != nil {
		return res, err
	}
	p := c.t.poller()
	for {
		pg, err := c.fetchURI(ctx, next)
		if err != nil {
			return res, err
		}
		if pg.Type != ResultNotReady {
			if len(pg.Columns) > 0 { // an EOS page may list none
				res.Columns = pg.Columns
			}
			if pg.JobID != "" {
				res.JobID = pg.JobID
			}
			if pg.Kind != "" {
				res.Kind = pg.Kind
			}
			res.IsQuery = res.IsQuery || pg.IsQuery
			res.Rows = append(res.Rows, pg.Rows...)
			if maxRows > 0 && len(res.Rows) >= maxRows {
				res.Rows, res.Truncated = res.Rows[:maxRows], pg.NextURI != "" || len(res.Rows) > maxRows
				return res, nil
			}
		}
		if pg.Type == ResultEOS || (pg.Type == ResultPayload && pg.NextURI == "") {
			return res, nil
		}
		if pg.NextURI != "" {
			u, err := url.Parse(pg.NextURI)
			if err != nil || u.IsAbs() {
				return res, &DecodeError{Method: http.MethodGet, URL: redactURL(joinURL(c.base, next)),
					Status: http.StatusOK, What: "fetch results", Err: errors.New("unusable nextResultUri"),
					Excerpt: clip(pg.NextURI, 200)}
			}
			next = pg.NextURI
		}
		if pg.Type == ResultNotReady || len(pg.Rows) == 0 {
			if err := p.wait(ctx); err != nil {
				return res, waitErr("fetch results of operation "+op, err)
			}
		} else {
			p = c.t.poller()
		}
	}
}

// ExecuteAndFetch executes a statement and fetches its results (at most
// maxRows when > 0).
func (c *SQLGateway) ExecuteAndFetch(ctx context.Context, session string, r StatementRequest, maxRows int) (Result, error) {
	op, err := c.Execute(ctx, session, r)
	if err != nil {
		return Result{}, err
	}
	return c.FetchAll(ctx, session, op, maxRows)
}

// JobIDColumn is the column the gateway returns for statements that submit
// a job (Constants.JOB_ID).
const JobIDColumn = "job id"

// InsertJobID returns the Flink job id an INSERT (or EXECUTE STATEMENT
// SET) submitted: the response's jobID, else the "job id" column of the
// first row. ok is false when there is neither.
func InsertJobID(r Result) (id string, ok bool) {
	if r.JobID != "" {
		return r.JobID, true
	}
	for i, col := range r.Columns {
		if !strings.EqualFold(col.Name, JobIDColumn) {
			continue
		}
		for _, row := range r.Rows {
			if i < len(row.Fields) {
				if s, isStr := row.Fields[i].(string); isStr && s != "" {
					return s, true
				}
			}
		}
	}
	return "", false
}
