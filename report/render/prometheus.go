package render

import (
	"io"
	"strconv"
	"strings"

	dto "github.com/prometheus/client_model/go"
	"github.com/prometheus/common/expfmt"

	"github.com/rdmadoctor/rdmadoctor/report"
)

// Prometheus writes the report in the Prometheus text exposition format, for node_exporter's
// textfile collector (--collector.textfile.directory; docs/integrations.md): one gauge
// rdmadoctor_diagnosis per diagnosis shown, labelled with the rule id, severity, confidence and
// subject; the counts by severity (every severity, 0 when none); rules evaluated, skipped and
// failed; the inputs not (fully) read, counted and one gauge each; whether the report is
// complete and whether the snapshot held RDMA facts at all; the build; and, when opts.Time is
// set, the run's time in unix seconds. Families come in a fixed order, diagnoses in rank order,
// and expfmt (github.com/prometheus/common) writes them, escaping label values as the format
// says (backslash, double quote, line feed).
//
// Two diagnoses with the same labels (a subject that differs only in its fabric node
// description) are one sample whose value counts them: node_exporter refuses a whole file that
// repeats a series.
func Prometheus(w io.Writer, r *report.Report, opts Options) error {
	for _, mf := range prometheusFamilies(r, opts) {
		if _, err := expfmt.MetricFamilyToText(w, mf); err != nil {
			return err
		}
	}
	return nil
}

// prometheusFamilies builds the metric families Prometheus writes, in order.
func prometheusFamilies(r *report.Report, opts Options) []*dto.MetricFamily {
	var diag []*dto.Metric
	seen := map[string]*dto.Metric{}
	for _, d := range r.Diagnoses {
		labels := diagnosisLabels(d)
		key := labelKey(labels)
		if m, ok := seen[key]; ok {
			*m.Gauge.Value++
			continue
		}
		m := sample(1, labels...)
		seen[key] = m
		diag = append(diag, m)
	}
	counts := r.Count()
	var bySeverity []*dto.Metric
	for _, sev := range report.Severities {
		bySeverity = append(bySeverity, sample(float64(counts[sev]), "severity", sev))
	}
	var inputs []*dto.Metric
	for _, s := range r.Sources {
		if s.Incomplete() {
			inputs = append(inputs, sample(1, "input", s.Name, "origin", s.Origin, "status", s.Status))
		}
	}
	failed := r.FailedRules()
	fams := []*dto.MetricFamily{
		family("rdmadoctor_diagnosis", "A diagnosis of this run: the rule id, its severity and confidence, and the subject (device, port, PCI address, netdev; node_guid for a fabric node); the value counts the diagnoses with these labels, 1 but for a subject told apart only by its fabric node description.", diag),
		family("rdmadoctor_diagnoses", "Diagnoses shown, by severity (every severity, 0 when none).", bySeverity),
		family("rdmadoctor_diagnoses_hidden", "Diagnoses below --min-severity, not shown.", []*dto.Metric{sample(float64(r.Hidden))}),
		family("rdmadoctor_diagnoses_ignored", "Diagnoses the site's ignore list took out.", []*dto.Metric{sample(float64(len(r.Ignored)))}),
		family("rdmadoctor_rules_evaluated", "Rules that ran.", []*dto.Metric{sample(float64(r.Evaluated))}),
		family("rdmadoctor_rules_skipped", "Rules not evaluated: their inputs were missing, or their evaluation failed.", []*dto.Metric{sample(float64(len(r.Skipped)))}),
		family("rdmadoctor_rules_failed", "Rules whose evaluation failed or ran out of time (counted in rdmadoctor_rules_skipped too).", []*dto.Metric{sample(float64(failed))}),
		family("rdmadoctor_inputs_incomplete", "Inputs that were partial, unreadable or timed out.", []*dto.Metric{sample(float64(len(inputs)))}),
		family("rdmadoctor_input_incomplete", "An input that was partial, unreadable or timed out: its name, the file it was read from, its status; value 1.", inputs),
		family("rdmadoctor_complete", "1 when every input was read whole and every rule evaluated, else 0: with 0, no diagnosis proves nothing.", []*dto.Metric{sample(bool01(r.Complete))}),
		family("rdmadoctor_rdma_facts", "1 when the node had RDMA facts to evaluate, 0 when nothing about RDMA could be (diagnose exit 3).", []*dto.Metric{sample(bool01(!opts.NoRDMAFacts))}),
		family("rdmadoctor_build_info", "The rdmadoctor that wrote this file; value 1.", []*dto.Metric{sample(1, "version", r.Tool.Version)}),
	}
	if !opts.Time.IsZero() {
		fams = append(fams, family("rdmadoctor_last_run_timestamp_seconds", "When this run finished, in unix seconds.",
			[]*dto.Metric{sample(float64(opts.Time.Unix()))}))
	}
	var out []*dto.MetricFamily
	for _, f := range fams {
		if len(f.Metric) > 0 { // a family without samples is left out, as client_golang does
			out = append(out, f)
		}
	}
	return out
}

// diagnosisLabels are the label pairs of one diagnosis, in a fixed order; an absent subject
// field is an empty value (which Prometheus reads as no label).
func diagnosisLabels(d report.Diagnosis) []string {
	port := ""
	if d.Subject.Port != nil {
		port = strconv.Itoa(*d.Subject.Port)
	}
	explainedBy := ""
	if d.ExplainedBy != nil {
		explainedBy = *d.ExplainedBy
	}
	return []string{
		"id", d.ID,
		"severity", d.Severity,
		"confidence", d.Confidence,
		"device", d.Subject.Device,
		"port", port,
		"pci", d.Subject.PCI,
		"netdev", d.Subject.Netdev,
		"node_guid", d.Subject.NodeGUID,
		"explained_by", explainedBy,
	}
}

func labelKey(pairs []string) string { return strings.Join(pairs, "\x00") }

func family(name, help string, metrics []*dto.Metric) *dto.MetricFamily {
	return &dto.MetricFamily{Name: &name, Help: &help, Type: dto.MetricType_GAUGE.Enum(), Metric: metrics}
}

// sample is one gauge sample with the label pairs name, value, ...; label values are made
// valid UTF-8, which the format requires.
func sample(v float64, pairs ...string) *dto.Metric {
	m := &dto.Metric{Gauge: &dto.Gauge{Value: &v}}
	for i := 0; i+1 < len(pairs); i += 2 {
		name, value := pairs[i], strings.ToValidUTF8(pairs[i+1], "\uFFFD")
		m.Label = append(m.Label, &dto.LabelPair{Name: &name, Value: &value})
	}
	return m
}

func bool01(b bool) float64 {
	if b {
		return 1
	}
	return 0
}
