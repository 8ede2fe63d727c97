package io.gfxstats.daemon.config;

/**
 * A setting, option or config file the daemon cannot use. The message is a complete sentence for
 * the user (it names the key or option and says what is allowed); {@link #key()} names the
 * setting or command-line option at fault. The daemon prints it and exits with status 2.
 */
public final class ConfigException extends IllegalArgumentException {
    private static final long serialVersionUID = 1L;

    private final String key;

    public ConfigException(String key, String message) {
        super(message);
        this.key = key;
    }

    public ConfigException(String key, String message, Throwable cause) {
        super(message, cause);
        this.key = key;
    }

    /** The setting ({@code flush.interval}) or option ({@code --config}) concerned. */
    public String key() {
        return key;
    }

    /** Same error with where the value came from in front ("config file /x: ..."). */
    ConfigException in(String origin) {
        return new ConfigException(key, origin + ": " + getMessage(), getCause());
    }
}
