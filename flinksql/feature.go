package flinksql

import (
	"sort"

	"github.com/palink/palink/flinksql/ast"

	"github.com/palink/palink/flinksql/builtin"
)

// feature is a piece of Flink's grammar that came after the oldest release
// palink knows (Oldest). The parser accepts the whole grammar of the newest
// release, whatever the target, and notes where a script uses a feature;
// checking those notes against Options.Version gives one clear error per
// statement instead of a confusing syntax error on an older cluster.
type feature uint8

// The features, by the release that brought them (Flink's release notes
// and the history of flink-sql-parser's Parser.tdd and parserImpls.ftl).
const (
	featNone feature = iota
	featStopJob
	featShowJobs
	featDelete
	featUpdate
	featAlterTableSchema
	featPlanAdvice
	featTruncate
	featCall
	featShowProcedures
	featReplaceTableAs
	featDescribeJob
	featAlterCatalog
	featDescribeCatalog
	featShowCreateCatalog
	featDistribution
	featMaterializedTable
	featCatalogComment
	featModel
	featCTASSchema
	featModelArg
	featCreateOrAlterMT
	featAlterMTAs
	featStructuredType
	featVariantType
	featFunctionOptions
	featShowMaterializedTables
	featMTDistribution
	featMTWithoutFreshness
	featConnection
	featOnConflict
	featArtifact
	featStartMode
	featMTSchema
	featTableArgOrderBy
	featSessionTVF
	featCount
)

// featureInfo is how a feature is named in a message and the release that
// brought it.
type featureInfo struct {
	name  string
	since builtin.Version
}

var features = [featCount]featureInfo{
	featStopJob:                {"STOP JOB", builtin.Version{Major: 1, Minor: 17}},
	featShowJobs:               {"SHOW JOBS", builtin.Version{Major: 1, Minor: 17}},
	featDelete:                 {"DELETE", builtin.Version{Major: 1, Minor: 17}},
	featUpdate:                 {"UPDATE", builtin.Version{Major: 1, Minor: 17}},
	featAlterTableSchema:       {"ALTER TABLE ADD/MODIFY/DROP/RENAME of columns, keys and watermarks", builtin.Version{Major: 1, Minor: 17}},
	featPlanAdvice:             {"EXPLAIN PLAN_ADVICE", builtin.Version{Major: 1, Minor: 17}},
	featTruncate:               {"TRUNCATE TABLE", builtin.Version{Major: 1, Minor: 18}},
	featCall:                   {"CALL", builtin.Version{Major: 1, Minor: 18}},
	featShowProcedures:         {"SHOW PROCEDURES", builtin.Version{Major: 1, Minor: 18}},
	featReplaceTableAs:         {"REPLACE TABLE … AS", builtin.Version{Major: 1, Minor: 18}},
	featDescribeJob:            {"DESCRIBE JOB", builtin.Version{Major: 1, Minor: 20}},
	featAlterCatalog:           {"ALTER CATALOG", builtin.Version{Major: 1, Minor: 20}},
	featDescribeCatalog:        {"DESCRIBE CATALOG", builtin.Version{Major: 1, Minor: 20}},
	featShowCreateCatalog:      {"SHOW CREATE CATALOG", builtin.Version{Major: 1, Minor: 20}},
	featDistribution:           {"DISTRIBUTED BY / INTO n BUCKETS", builtin.Version{Major: 1, Minor: 20}},
	featMaterializedTable:      {"MATERIALIZED TABLE", builtin.Version{Major: 1, Minor: 20}},
	featCatalogComment:         {"a catalog COMMENT", builtin.Version{Major: 2, Minor: 0}},
	featModel:                  {"MODEL statements", builtin.Version{Major: 2, Minor: 0}},
	featCTASSchema:             {"a schema in CREATE TABLE … AS", builtin.Version{Major: 2, Minor: 0}},
	featModelArg:               {"a MODEL argument (ML_PREDICT, ML_EVALUATE)", builtin.Version{Major: 2, Minor: 1}},
	featCreateOrAlterMT:        {"CREATE OR ALTER MATERIALIZED TABLE", builtin.Version{Major: 2, Minor: 1}},
	featAlterMTAs:              {"ALTER MATERIALIZED TABLE … AS", builtin.Version{Major: 2, Minor: 1}},
	featStructuredType:         {"the STRUCTURED type", builtin.Version{Major: 2, Minor: 1}},
	featVariantType:            {"the VARIANT type", builtin.Version{Major: 2, Minor: 1}},
	featFunctionOptions:        {"CREATE FUNCTION … WITH (…)", builtin.Version{Major: 2, Minor: 1}},
	featShowMaterializedTables: {"SHOW MATERIALIZED TABLES", builtin.Version{Major: 2, Minor: 2}},
	featMTDistribution:         {"the distribution of a materialized table", builtin.Version{Major: 2, Minor: 2}},
	featMTWithoutFreshness:     {"a materialized table without FRESHNESS", builtin.Version{Major: 2, Minor: 2}},
	featConnection:             {"CONNECTION statements", builtin.Version{Major: 2, Minor: 2}},
	featOnConflict:             {"INSERT … ON CONFLICT", builtin.Version{Major: 2, Minor: 3}},
	featArtifact:               {"USING ARTIFACT", builtin.Version{Major: 2, Minor: 3}},
	featStartMode:              {"START_MODE", builtin.Version{Major: 2, Minor: 3}},
	featMTSchema:               {"a schema in CREATE MATERIALIZED TABLE", builtin.Version{Major: 2, Minor: 3}},
	featTableArgOrderBy:        {"ORDER BY on a table argument", builtin.Version{Major: 2, Minor: 3}},
	// The grammar took TABLE(SESSION(…)) earlier, but the planner refused
	// it in streaming until FLINK-24024 landed in 1.19.
	featSessionTVF: {"the SESSION window TVF", builtin.Version{Major: 1, Minor: 19}},
}

// featureUse is where a script uses a feature.
type featureUse struct {
	feat feature
	// name overrides the feature's name when the statement says it better
	// ("CREATE MODEL" rather than "MODEL statements").
	name string
	span ast.Span
}

// uses notes that the current statement uses f between start and the end
// of the last token read.
func (p *parser) uses(f feature, name string, start ast.Pos) {
	p.features = append(p.features, featureUse{feat: f, name: name, span: ast.Span{Pos: start, End: p.lastEnd}})
}

// ReleaseLacks reports, once per statement, the first construct of a
// parsed script that opts.Version does not have yet, at its line:col in
// opts.File (what Check reports with the version set), for a caller that
// parsed the script already. The grammar parsed is the newest release's
// whatever the version, so the script need not be parsed for it.
func ReleaseLacks(s *Script, opts Options) []Diagnostic {
	if s == nil {
		return nil
	}
	return versionDiagnostics(s, opts)
}

// versionDiagnostics reports, once per statement, the first construct the
// target release does not have yet.
func versionDiagnostics(s *Script, opts Options) []Diagnostic {
	if opts.Version.IsZero() || len(s.features) == 0 {
		return nil
	}
	uses := append([]featureUse(nil), s.features...)
	sort.SliceStable(uses, func(i, j int) bool { return uses[i].span.Pos.Offset < uses[j].span.Pos.Offset })
	var out []Diagnostic
	stmt := 0
	lastStmt := -1
	for _, u := range uses {
		info := features[u.feat]
		if !opts.Version.Before(info.since) {
			continue
		}
		for stmt < len(s.Stmts) && s.Stmts[stmt].Range().End.Offset < u.span.Pos.Offset {
			stmt++
		}
		if stmt == lastStmt {
			continue
		}
		lastStmt = stmt
		name := info.name
		if u.name != "" {
			name = u.name
		}
		out = append(out, Diagnostic{Severity: SeverityError, Code: CodeNeedsNewerFlink, File: opts.File,
			Pos: u.span.Pos, End: u.span.End, src: s.Src,
			Msg: name + " needs Flink " + info.since.String() + "; " + opts.target()})
	}
	return out
}
