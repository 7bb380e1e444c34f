package build

import (
	"path"
	"strconv"
	"strings"

	"github.com/rdmadoctor/rdmadoctor/facts"
	"github.com/rdmadoctor/rdmadoctor/facts/parse"
)

// perftestPrograms are the perftest benchmarks whose outputs are read (linux-rdma/perftest).
var perftestPrograms = []string{"ib_write_bw", "ib_read_bw", "ib_send_bw", "ib_write_lat", "ib_read_lat", "ib_send_lat"}

// perftestSniffRe is how a perftest output starts when its name says nothing: the title line
// ("RDMA_Write BW Test", "Send Latency Test"), a results header, a completion error, or a
// client that could not reach its server: "Couldn't connect to 192.168.125.211:18515"
// (perftest_communication.c) followed by the benchmark's own " Unable to init the socket
// connection" (or "Unable to open file descriptor for socket connection", perftest before
// linux-rdma/perftest#228). The first line alone is not perftest's: rdma-core's
// ibv_rc_pingpong and its siblings print it too (libibverbs/examples, pp_client_exch_dest).
var perftestSniffRe = mustSniff(`(?m)^\s*(?:(?:RDMA[_ ]\S+|Send)\b.*\b(?:BW|Latency)\b.*\bTest\s*$|#bytes\s+#iterations\s+(?:BW peak|t_min)|Completion with error at (?:client|server)|Couldn't connect to \S+:\d+\s*\n(?:.*\n){0,3}?\s*Unable to (?:init the socket connection|open file descriptor for socket connection))`)

func init() {
	register(Spec{
		Name:     "perftest",
		Commands: perftestPrograms,
		Sniff:    func(h []byte) bool { return perftestSniffRe.Match(h) },
		Apply:    applyPerftest,
		MissingHint: "save the client's output of a perftest run, e.g. `ib_write_bw -d <dev> --report_gbits` on one node and " +
			"`ib_write_bw -d <dev> --report_gbits <server>` on the other (package perftest)",
		Groups: []string{"perftest"},
		NotLive: "a benchmark needs a server and a client on two nodes and loads the link while it runs; " +
			"rdmadoctor reads its saved output",
	})
}

// applyPerftest adds the runs of a perftest capture to Snapshot.Perftest, with the program, the
// device and the port its file name's command line gives (ib_write_bw_-d_mlx5_0_-i_1_10.0.0.1).
func applyPerftest(s *facts.Snapshot, in Input) error {
	out, err := parse.Perftest(in.Data) // parse.Problems: the runs returned are still good
	if _, ok := parse.AsProblems(err); err != nil && !ok {
		return err
	}
	program := perftestProgram(in.Path)
	dev, port := perftestArgs(s, in.Args)
	name := path.Base(in.Path)
	for _, r := range out.Runs {
		r.Program = program
		if r.Kind == "" {
			r.Kind = perftestKind(program)
		}
		if r.Device == "" && dev != "" {
			r.Device = dev
			r.Evidence.Set("device", facts.Evidence{Text: "-d " + dev + " (file name " + name + ")"})
		}
		if port != nil {
			r.Port = port
			r.Evidence.Set("port", facts.Evidence{Text: "-i " + strconv.Itoa(*port) + " (file name " + name + ")"})
		}
		s.Perftest = append(s.Perftest, r)
	}
	return err
}

// perftestProgram is the benchmark a file's name names, "" when it names none.
func perftestProgram(p string) string {
	base := path.Base(p)
	for _, prog := range perftestPrograms {
		if base == prog || strings.HasPrefix(base, prog+"_") || strings.HasPrefix(base, prog+".") {
			return prog
		}
	}
	return ""
}

func perftestKind(program string) string {
	switch {
	case strings.HasSuffix(program, "_bw"):
		return "bandwidth"
	case strings.HasSuffix(program, "_lat"):
		return "latency"
	}
	return ""
}

// perftestArgs reads the device (-d, --ib-dev) and port (-i, --ib-port) from a sos-mangled
// perftest command line ("-d_mlx5_0_-i_2_10.0.0.1", "--ib-dev_mlx5_1_--ib-port_1"). Device names
// hold "_" (mlx5_0) and the server's address may follow the device, so the words after -d are
// cut to the longest run of them that names a device of the snapshot, else before the first
// word with a '.' (an address; device names have none). A command line (some flag) without -i
// used port 1, perftest's default (DEF_IB_PORT); no command line ("ib_write_bw_in_pod"), no port.
func perftestArgs(s *facts.Snapshot, args string) (dev string, port *int) {
	if args == "" {
		return "", nil
	}
	f := strings.Split(args, "_")
	for i := 0; i < len(f); i++ {
		switch f[i] {
		case "-d", "--ib-dev":
			j := i + 1
			for j < len(f) && !strings.HasPrefix(f[j], "-") {
				j++
			}
			dev = perftestDevice(s, f[i+1:j])
			i = j - 1
		case "-i", "--ib-port":
			if i+1 < len(f) {
				if n, err := strconv.Atoi(f[i+1]); err == nil {
					port = &n
				}
				i++
			}
		}
	}
	if port == nil && strings.Contains("_"+args, "_-") { // a command line, not a label such as "in_pod"
		one := 1
		port = &one
	}
	return dev, port
}

func perftestDevice(s *facts.Snapshot, words []string) string {
	for n := len(words); n > 0; n-- {
		name := strings.Join(words[:n], "_")
		for _, d := range s.Devices {
			if d.Name == name {
				return name
			}
		}
	}
	for n, w := range words {
		if strings.Contains(w, ".") {
			return strings.Join(words[:n], "_")
		}
	}
	return strings.Join(words, "_")
}
