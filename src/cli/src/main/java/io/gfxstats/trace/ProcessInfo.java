package io.gfxstats.trace;

/** A process (payload pid, else row TGID) seen in a marker line. */
public final class ProcessInfo {
    final int ipid;
    final int pid;
    int kernelTgid = -1;
    String name;
    boolean nameFromMainThread;

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

    public String name() {
        return name != null ? name : "pid " + pid;
    }
}
