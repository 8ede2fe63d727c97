# The table of `scripts/bench methods`: its run lines (RenderThreadBench's and bench.c's
# "lang=... method=... record_ns=... peer_ns=... ratio=... work_ns=... work=...
# transfer_before_ns=... transfer_after_ns=..."), given twice: awk -f bench-methods.awk RUNS RUNS.
#
# Runs are grouped by where the two CPUs were (a cache line's time between them, probed before and
# after each run): "near" when both probes took under twice the least any probe in the file took,
# "far" when both took more, "moved" when the placement changed during the run. On a virtual
# machine the host moves the CPUs every few seconds, and a cross-core figure follows them.
function field(k,   i) { for (i = 1; i <= NF; i++) if (index($i, k "=") == 1) return substr($i, length(k) + 2); return "" }
function median(list,   a, n, i, j, t) {
  n = split(list, a, " ")
  for (i = 2; i <= n; i++) { t = a[i] + 0; for (j = i - 1; j >= 1 && a[j] + 0 > t; j--) a[j + 1] = a[j]; a[j + 1] = t }
  # Of an even count the mean of the two middle values: runs grouped by placement are often two.
  return n % 2 ? a[(n + 1) / 2] : (a[n / 2] + a[n / 2 + 1]) / 2
}
function lo(list,   a, n, i, m) { n = split(list, a, " "); m = a[1] + 0; for (i = 2; i <= n; i++) if (a[i] + 0 < m) m = a[i] + 0; return m }
function hi(list,   a, n, i, m) { n = split(list, a, " "); m = a[1] + 0; for (i = 2; i <= n; i++) if (a[i] + 0 > m) m = a[i] + 0; return m }
function probe(k,   v) { v = field(k); return v == "" ? -1 : v + 0 }
FNR == NR {
  b = probe("transfer_before_ns"); a = probe("transfer_after_ns")
  if (b > 0 && (least == "" || b < least)) least = b
  if (a > 0 && (least == "" || a < least)) least = a
  next
}
{
  b = probe("transfer_before_ns"); a = probe("transfer_after_ns")
  place = (b <= 0 || a <= 0) ? "unknown" : (b < 2 * least && a < 2 * least) ? "near" : (b >= 2 * least && a >= 2 * least) ? "far" : "moved"
  row = field("lang") " " field("method") " " field("work")
  if (!(row in first)) first[row] = ++rows
  key = row " " place
  # Rows in the order of the runs' first lines, each row's placements near, moved, far, unknown.
  if (!(key in rec)) { order[++keys] = key; rank[key] = first[row] * 4 + (place == "near" ? 0 : place == "moved" ? 1 : place == "far" ? 2 : 3) }
  rec[key] = rec[key] " " field("record_ns"); peer[key] = peer[key] " " field("peer_ns")
  ratio[key] = ratio[key] " " field("ratio"); work[key] = work[key] " " field("work_ns")
  if (b > 0) line[key] = line[key] " " b
  if (a > 0) line[key] = line[key] " " a
  runs[key]++
}
END {
  for (i = 2; i <= keys; i++) { k = order[i]; for (j = i - 1; j >= 1 && rank[order[j]] > rank[k]; j--) order[j + 1] = order[j]; order[j + 1] = k }
  print "| Client | Method | work per frame | CPUs (a line between them, ns) | runs | record ns/frame | peer ns/frame | ratio of the medians | ratio (range over the runs) |"
  print "|---|---|---:|---|---:|---:|---:|---:|---:|"
  for (i = 1; i <= keys; i++) {
    k = order[i]; split(k, p, " ")
    # Paced, a path the work hides entirely adds about 0: a ratio of two such is noise, not a figure.
    r = median(rec[k]); q = median(peer[k])
    shown = q < 0.1 ? "- (peer < 0.1 ns)" : sprintf("**%.2f**", r / q)
    range = q < 0.1 ? "-" : sprintf("%.2f-%.2f", lo(ratio[k]), hi(ratio[k]))
    cpus = line[k] == "" ? p[4] : sprintf("%s (%.0f-%.0f)", p[4], lo(line[k]), hi(line[k]))
    printf "| %s | %s | %s | %s | %d | %.2f | %.2f | %s | %s |\n", (p[1] == "c" ? "C" : "Java"), p[2],
      (p[2] == "paced" ? sprintf("%d rounds, %.0f ns", p[3], median(work[k])) : "-"), cpus, runs[k], r, q, shown, range
  }
}
