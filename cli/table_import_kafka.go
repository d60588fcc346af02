package cli

import (
	"bufio"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/spf13/cobra"

	"github.com/palink/palink/core"
	"github.com/palink/palink/core/api"
)

// kafkaImport is `palink table import NAME --kafka BROKERS --topic T`: the
// schema of a topic inferred from its newest records, shown to be
// confirmed before it is added.
type kafkaImport struct {
	brokers, topic, format string
	brokersVar             string
	records                int
}

func (k *kafkaImport) flags(cmd *cobra.Command) {
	cmd.Flags().StringVar(&k.brokers, "kafka", "", "the Kafka brokers to read the topic from (host:port,host:port)")
	cmd.Flags().StringVar(&k.topic, "topic", "", "the topic whose records the schema is inferred from (with --kafka)")
	cmd.Flags().StringVar(&k.format, "format", "json", "the records' format: json or csv (with --kafka)")
	cmd.Flags().StringVar(&k.brokersVar, "brokers-var", "", "write the brokers in the DDL as ${NAME}, a variable each cluster sets (with --kafka)")
	cmd.Flags().IntVar(&k.records, "records", api.DefaultImportRecords, "how many of the topic's newest records to read (with --kafka)")
}

func (k *kafkaImport) run(cmd *cobra.Command, g *globals, name string, dryRun bool) error {
	if k.topic == "" {
		return fmt.Errorf("table import %s: --kafka needs --topic T", name)
	}
	if k.records <= 0 {
		return fmt.Errorf("table import %s: --records %d: want how many records to read, at least 1", name, k.records)
	}
	ctx, cancel := signalContext(cmd.Context())
	defer cancel()
	imp, err := core.Importer().ImportKafka(ctx, api.KafkaImportRequest{Name: name, Brokers: k.brokers, Topic: k.topic, Format: k.format, Records: k.records, BrokersVar: k.brokersVar})
	if err != nil {
		return err
	}
	if !dryRun && !g.yes {
		if err := confirmImport(cmd, name, imp); err != nil {
			return err
		}
	}
	if k.brokersVar != "" {
		imp.Warnings = append(imp.Warnings, fmt.Sprintf("the DDL reads the brokers from ${%s}: palink var set %s %s (--cluster C for one cluster's)", k.brokersVar, k.brokersVar, k.brokers))
	}
	return addImported(cmd, g, name, "inferred from topic "+k.topic, imp, dryRun)
}

// confirmImport shows the proposed DDL and asks whether to add it: the
// types are a guess from the records read, for a person to check.
func confirmImport(cmd *cobra.Command, name string, imp api.ImportedTable) error {
	errw := cmd.ErrOrStderr()
	fmt.Fprintf(errw, "proposed from %d records (%d did not decode):\n\n%s\n\n", imp.Records, imp.Undecodable, imp.SQL)
	for _, w := range imp.Warnings {
		fmt.Fprintf(errw, "warning: %s\n", w)
	}
	in := cmd.InOrStdin()
	if f, ok := in.(*os.File); ok && !isTerminal(f) {
		return exitError{code: 2, msg: "refusing without confirmation: no terminal to ask on; pass --yes (or --dry-run to only print it)"}
	}
	fmt.Fprintf(errw, "Add %s to the catalog? Type yes: ", name)
	line, err := bufio.NewReader(in).ReadString('\n')
	if err != nil && err != io.EOF {
		return err
	}
	if strings.TrimSpace(line) != "yes" {
		return exitError{code: 1, msg: "cancelled: nothing added"}
	}
	return nil
}
