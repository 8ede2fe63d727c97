package io.gfxstats.cli;

import io.gfxstats.args.Args;
import io.gfxstats.args.UsageException;
import io.gfxstats.collect.CollectOutput;
import io.gfxstats.collect.Collector;
import io.gfxstats.collect.GrpcTargetPuller;
import io.gfxstats.collect.RetryPolicy;
import io.gfxstats.collect.Target;
import io.gfxstats.collect.TargetList;
import io.gfxstats.collect.TargetResult;
import io.gfxstats.rpc.BearerToken;
import java.io.IOException;
import java.io.InputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileSystemException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.cert.CertificateException;
import java.security.cert.CertificateFactory;
import java.time.Duration;
import java.util.List;

/**
 * {@code gfxstats collect}: the fleet collector. Parses and checks everything up front (so a typo
 * fails in a second, not after pulling a thousand daemons), then hands the work to
 * {@link Collector} and writes its files with {@link CollectOutput}.
 */
final class CollectCommand extends OptionsCommand {
    /** No target could be pulled (usage errors stay {@link Command#EXIT_ERROR}). */
    static final int EXIT_ALL_FAILED = 3;
    static final int DEFAULT_CONCURRENCY = 16;

    @Override
    public String name() {
        return "collect";
    }

    @Override
    public String synopsis() {
        return "collect --targets FILE|host:port,... --out DIR [--last-full-day] [--token-file F] [--ca-cert F]"
                + " [--concurrency N] [--deadline SECONDS] [--retries N]";
    }

    @Override
    Args options() {
        return new Args("collect")
                .value("--targets", "FILE|LIST", "targets file (one host:port or unix:/path per line, # comments;"
                        + " - for stdin) or a comma-separated list")
                .value("--out", "DIR", "where to write " + CollectOutput.MERGED + ", " + CollectOutput.STATUS_TSV
                        + " and " + CollectOutput.STATUS_JSON)
                .flag("--last-full-day", "pull yesterday (UTC) instead of today")
                .value("--token-file", "F", "bearer token for TCP targets")
                .value("--ca-cert", "F", "PEM certificate (or CA) the TCP targets' TLS certificates must chain to")
                .value("--concurrency", "N", "targets pulled at once (default " + DEFAULT_CONCURRENCY + ")")
                .value("--deadline", "SECONDS", "time allowed per target, retries included (default "
                        + RetryPolicy.DEFAULT_DEADLINE.toSeconds() + ")")
                .value("--retries", "N", "further attempts after a failure that may pass (default "
                        + RetryPolicy.DEFAULT_RETRIES + ")");
    }

    @Override
    String about() {
        return "Pulls one UTC day from many daemons and merges it per (uid, package, version, day).\n"
                    + "Exit status: 0 if at least one target was pulled, " + EXIT_ALL_FAILED + " if none was, "
                    + EXIT_ERROR + " for usage errors.";
    }

    @Override
    int execute(Args.Parsed args, InputStream in, PrintStream out, PrintStream err) throws UsageException {
        List<Target> targets = targets(args.required("--targets"), in);
        Path outDir = Path.of(args.required("--out"));
        int concurrency = args.intValue("--concurrency", DEFAULT_CONCURRENCY, 1, 1024);
        int retries = args.intValue("--retries", RetryPolicy.DEFAULT_RETRIES, 0, 20);
        Duration deadline = args.seconds("--deadline", RetryPolicy.DEFAULT_DEADLINE, DaemonCall.MAX_DEADLINE_SECONDS);
        if (deadline.toMillis() < 100) {
            throw new UsageException("option --deadline must be at least 0.1 seconds");
        }
        String token = args.has("--token-file") ? token(Path.of(args.value("--token-file"))) : null;
        Path caCert = args.has("--ca-cert") ? checkedCertificate(Path.of(args.value("--ca-cert"))) : null;
        try {
            Files.createDirectories(outDir);
        } catch (IOException e) {
            throw new UsageException("cannot create output directory " + outDir + ": " + reason(e), e);
        }

        DaemonCall.quietNetty();
        Collector collector = new Collector(concurrency, RetryPolicy.of(deadline, retries),
                new GrpcTargetPuller(caCert, token));
        CollectProgress progress = CollectProgress.stderrIsTerminal(System.getenv())
                ? new CollectProgress(err, targets.size()).start() : null;
        if (progress != null) {
            collector.progress(progress);
        }
        Collector.Result result;
        try {
            result = collector.collect(targets, args.has("--last-full-day"));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new UsageException("interrupted", e);
        } finally {
            if (progress != null) {
                progress.end();
            }
        }
        try {
            CollectOutput.write(outDir, result);
        } catch (IOException e) {
            throw new UsageException("cannot write to " + outDir + ": " + reason(e), e);
        }
        report(result, outDir, out, err);
        return result.succeeded() > 0 ? 0 : EXIT_ALL_FAILED;
    }

    private static void report(Collector.Result result, Path outDir, PrintStream out, PrintStream err) {
        for (TargetResult t : result.targets()) {
            if (!t.ok()) {
                err.println("gfxstats collect: " + t.target() + ": failed after " + t.attempts()
                        + (t.attempts() == 1 ? " attempt: " : " attempts: ") + t.error());
            }
            for (String r : t.rejected()) {
                err.println("gfxstats collect: " + t.target() + ": " + r);
            }
        }
        if (!result.saturated().isEmpty()) {
            err.println("gfxstats collect: warning: a counter reached the int32 maximum (2147483647) and stopped there in "
                    + String.join("; ", result.saturated()));
        }
        int total = result.targets().size();
        int ok = result.succeeded();
        StringBuilder line = new StringBuilder("collected ").append(ok).append(" of ").append(total)
                .append(total == 1 ? " target" : " targets");
        if (ok < total) {
            line.append(" (").append(total - ok).append(" failed)");
        }
        line.append(": ").append(result.entriesMerged()).append(" entries merged into ")
                .append(result.merged().getStatsCount());
        out.println(line);
        if (ok > 0) {
            out.println("wrote " + outDir.resolve(CollectOutput.MERGED) + ", " + outDir.resolve(CollectOutput.STATUS_TSV)
                    + ", " + outDir.resolve(CollectOutput.STATUS_JSON));
        } else {
            out.println("no target answered; " + outDir.resolve(CollectOutput.MERGED) + " left as it was; wrote "
                    + outDir.resolve(CollectOutput.STATUS_TSV) + ", " + outDir.resolve(CollectOutput.STATUS_JSON));
        }
    }

    /** A file if one exists by that name ({@code -}: stdin), else a comma-separated list. */
    static List<Target> targets(String value, InputStream in) throws UsageException {
        try {
            if (value.equals("-")) {
                return TargetList.parseFile(new String(in.readAllBytes(), StandardCharsets.UTF_8), "standard input");
            }
            Path file = Path.of(value);
            if (Files.exists(file)) {
                return TargetList.parseFile(Files.readString(file, StandardCharsets.UTF_8), "targets file " + file);
            }
            if (value.indexOf(':') < 0) {
                throw new UsageException("cannot read targets file " + value + ": no such file");
            }
            return TargetList.parseList(value);
        } catch (IllegalArgumentException e) {
            throw new UsageException(e.getMessage(), e);
        } catch (IOException e) {
            throw new UsageException("cannot read targets " + value + ": " + reason(e), e);
        }
    }

    static String token(Path file) throws UsageException {
        String text;
        try {
            text = Files.readString(file, StandardCharsets.US_ASCII).strip();
        } catch (IOException e) {
            throw new UsageException("cannot read token file " + file + ": " + reason(e), e);
        }
        try {
            BearerToken.of(text);
        } catch (IllegalArgumentException e) {
            throw new UsageException("token file " + file + " holds no usable token: " + e.getMessage(), e);
        }
        return text;
    }

    /** Checked here so that a bad file is one usage error, not one failure per target. */
    static Path checkedCertificate(Path file) throws UsageException {
        try (InputStream pem = Files.newInputStream(file)) {
            if (CertificateFactory.getInstance("X.509").generateCertificates(pem).isEmpty()) {
                throw new UsageException("CA certificate file " + file + " holds no certificate");
            }
            return file;
        } catch (IOException e) {
            throw new UsageException("cannot read CA certificate file " + file + ": " + reason(e), e);
        } catch (CertificateException e) {
            throw new UsageException("CA certificate file " + file + " is not a PEM certificate: " + e.getMessage(), e);
        }
    }

    /** The useful part of an I/O error: NIO's messages are often just the path. */
    static String reason(IOException e) {
        if (e instanceof FileSystemException fse && fse.getReason() != null) {
            return fse.getReason();
        }
        String kind = switch (e.getClass().getSimpleName()) {
            case "NoSuchFileException" -> "no such file or directory";
            case "AccessDeniedException" -> "permission denied";
            case "FileAlreadyExistsException" -> "a file is in the way";
            case "NotDirectoryException" -> "not a directory";
            case "DirectoryNotEmptyException" -> "directory not empty";
            default -> null;
        };
        if (kind != null) {
            return kind;
        }
        return e.getMessage() == null ? e.getClass().getSimpleName() : e.getMessage();
    }
}
