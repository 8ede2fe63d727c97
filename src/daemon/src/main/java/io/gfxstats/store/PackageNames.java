package io.gfxstats.store;

import io.gfxstats.stats.PackageRules;

import java.util.Optional;

/**
 * The store's side of {@link PackageRules}: the same rule, failing with an
 * {@link InvalidArgumentException} that names the request field.
 */
public final class PackageNames {
    public static final int MAX_LENGTH = PackageRules.MAX_LENGTH;
    public static final String PACKAGE_FIELD = "package_name";
    public static final String VERSION_FIELD = "version_code";

    private PackageNames() {
    }

    public static boolean isValid(String name) {
        return PackageRules.isValid(name);
    }

    /** The name itself, or an {@link InvalidArgumentException} saying what is wrong with it. */
    public static String requireValid(String name) {
        Optional<String> problem = problem(name);
        if (problem.isPresent()) {
            throw new InvalidArgumentException(PACKAGE_FIELD, problem.get());
        }
        return name;
    }

    public static boolean isValidVersionCode(long versionCode) {
        return PackageRules.versionCodeProblem(versionCode).isEmpty();
    }

    public static long requireValidVersionCode(long versionCode) {
        Optional<String> problem = PackageRules.versionCodeProblem(versionCode);
        if (problem.isPresent()) {
            throw new InvalidArgumentException(VERSION_FIELD, problem.get());
        }
        return versionCode;
    }

    /** What is wrong with a package name, in words, or empty when it is valid. */
    public static Optional<String> problem(String name) {
        return PackageRules.problem(name);
    }
}
