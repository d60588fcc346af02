package flinksql

import (
	"sort"

	"github.com/palink/palink/flinksql/ast"
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
	since Version
}

var features = [featCount]featureInfo{
	featStopJob:                {"STOP JOB", Version{1, 17}},
	featShowJobs:               {"SHOW JOBS", Version{1, 17}},
	featDelete:                 {"DELETE", Version{1, 17}},
	featUpdate:                 {"UPDATE", Version{1, 17}},
	featAlterTableSchema:       {"ALTER TABLE ADD/MODIFY/DROP/RENAME of columns, keys and watermarks", Version{1, 17}},
	featPlanAdvice:             {"EXPLAIN PLAN_ADVICE", Version{1, 17}},
	featTruncate:               {"TRUNCATE TABLE", Version{1, 18}},
	featCall:                   {"CALL", Version{1, 18}},
	featShowProcedures:         {"SHOW PROCEDURES", Version{1, 18}},
	featReplaceTableAs:         {"REPLACE TABLE … AS", Version{1, 18}},
	featDescribeJob:            {"DESCRIBE JOB", Version{1, 20}},
	featAlterCatalog:           {"ALTER CATALOG", Version{1, 20}},
	featDescribeCatalog:        {"DESCRIBE CATALOG", Version{1, 20}},
	featShowCreateCatalog:      {"SHOW CREATE CATALOG", Version{1, 20}},
	featDistribution:           {"DISTRIBUTED BY / INTO n BUCKETS", Version{1, 20}},
	featMaterializedTable:      {"MATERIALIZED TABLE", Version{1, 20}},
	featCatalogComment:         {"a catalog COMMENT", Version{2, 0}},
	featModel:                  {"MODEL statements", Version{2, 0}},
	featCTASSchema:             {"a schema in CREATE TABLE … AS", Version{2, 0}},
	featModelArg:               {"a MODEL argument (ML_PREDICT, ML_EVALUATE)", Version{2, 1}},
	featCreateOrAlterMT:        {"CREATE OR ALTER MATERIALIZED TABLE", Version{2, 1}},
	featAlterMTAs:              {"ALTER MATERIALIZED TABLE … AS", Version{2, 1}},
	featStructuredType:         {"the STRUCTURED type", Version{2, 1}},
	featVariantType:            {"the VARIANT type", Version{2, 1}},
	featFunctionOptions:        {"CREATE FUNCTION … WITH (…)", Version{2, 1}},
	featShowMaterializedTables: {"SHOW MATERIALIZED TABLES", Version{2, 2}},
	featMTDistribution:         {"the distribution of a materialized table", Version{2, 2}},
	featMTWithoutFreshness:     {"a materialized table without FRESHNESS", Version{2, 2}},
	featConnection:             {"CONNECTION statements", Version{2, 2}},
	featOnConflict:             {"INSERT … ON CONFLICT", Version{2, 3}},
	featArtifact:               {"USING ARTIFACT", Version{2, 3}},
	featStartMode:              {"START_MODE", Version{2, 3}},
	featMTSchema:               {"a schema in CREATE MATERIALIZED TABLE", Version{2, 3}},
	featTableArgOrderBy:        {"ORDER BY on a table argument", Version{2, 3}},
	// The grammar took TABLE(SESSION(…)) earlier, but the planner refused
	// it in streaming until FLINK-24024 landed in 1.19.
	featSessionTVF: {"the SESSION window TVF", Version{1, 19}},
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
