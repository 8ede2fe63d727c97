package io.gfxstats.trace;

/** A process (payload pid, else row TGID) seen in a marker line. */
public final class ProcessInfo {
    final int ipid;
    final int pid;
    int kernelTgid = -1;
    String name;
    boolean nameFromMainThread;
    /** Whether a C (counter) marker named it: trace_streamer then has measures for it. */
    boolean counters;

    ProcessInfo(int ipid, int pid) {
        this.ipid = ipid;
        this.pid = pid;
    }

    public int ipid() {
        return ipid;
    }

    public int pid() {
        return pid;
    }

    /** The row TGID of its threads when it differs from the payload pid (container apps), else -1. */
    public int kernelTgid() {
        return kernelTgid;
    }

    /** Whether a C (counter) marker of this process was seen. */
    public boolean counters() {
        return counters;
    }

    public String name() {
        return name != null ? name : "pid " + pid;
    }
}
