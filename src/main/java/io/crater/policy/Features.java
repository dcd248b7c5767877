package io.crater.policy;

import java.math.BigDecimal;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * What an account's members may use and how fast its pods may talk: each feature is on unless the account turned it
 * off, or, without the account's own value, the platform's default for that kind of account did; a bandwidth cap is
 * the account's own, else the platform's, where {@code none} means no cap.
 */
public final class Features {

    /** SSH into a job and the web terminal: a shell in its pod. */
    public static final String SSH = "ssh";
    /** Jobs submitted at high priority. */
    public static final String HIGH_PRIORITY = "high-priority";
    /** A bandwidth setting that means no cap (an account's own: no cap even where the platform sets one). */
    public static final String NONE = "none";

    /** The kubelet's bandwidth plugin takes rates from 1k to 1P bits per second. */
    private static final BigDecimal MIN_RATE = BigDecimal.valueOf(1_000);

    private static final BigDecimal MAX_RATE = BigDecimal.TEN.pow(15);
    private static final Pattern RATE = Pattern.compile("^([0-9]+(?:\\.[0-9]+)?)(k|M|G|T|P|Ki|Mi|Gi|Ti|Pi)?$");

    private Features() {}

    /**
     * The switches in force, in the order of {@code known}: the account's own value where it has one, else off when
     * the platform's default turns it off, else on.
     */
    public static Map<String, Boolean> effective(
            List<String> known, Map<String, Boolean> own, Collection<String> offByDefault) {
        Map<String, Boolean> out = new LinkedHashMap<>();
        for (String f : known) {
            Boolean set = own == null ? null : own.get(f);
            out.put(f, set != null ? set : !offByDefault.contains(f));
        }
        return out;
    }

    /** The names that are no feature, sorted. */
    public static Set<String> unknown(List<String> known, Collection<String> names) {
        Set<String> out = new TreeSet<>(names);
        out.removeAll(known);
        return out;
    }

    /**
     * Why {@code feature} may not be used in {@code account}, or empty when it may ({@link ReasonCode#FeatureDisabled}
     * with the feature and the account).
     */
    public static Optional<Reason> refusal(Map<String, Boolean> effective, String feature, String account) {
        if (!Boolean.FALSE.equals(effective.get(feature))) {
            return Optional.empty();
        }
        return Optional.of(ReasonCode.FeatureDisabled.reason(
                "'" + feature + "' is turned off in account '" + account + "' by a platform admin",
                Map.of(),
                Map.of("feature", feature, "account", account)));
    }

    /**
     * What is wrong with a bandwidth cap, or empty when it is one: a Kubernetes quantity of bits per second from 1k to
     * 1P ({@code 100M}, {@code 1G}, {@code 500Mi}), or {@code none}. Blank means unset and is fine too.
     */
    public static Optional<String> bandwidthProblem(String value) {
        if (value == null || value.isBlank() || NONE.equals(value.trim())) {
            return Optional.empty();
        }
        Matcher m = RATE.matcher(value.trim());
        if (!m.matches()) {
            return Optional.of("a rate in bits per second such as 100M or 1G (k, M, G, T, P or Ki … Pi), or none");
        }
        BigDecimal rate = new BigDecimal(m.group(1)).multiply(multiplier(m.group(2)));
        if (rate.compareTo(MIN_RATE) < 0 || rate.compareTo(MAX_RATE) > 0) {
            return Optional.of("between 1k and 1P bits per second");
        }
        return Optional.empty();
    }

    /**
     * The cap in force: the account's own when set, else the platform's; null when that is {@code none} (no
     * annotation is written).
     */
    public static String bandwidth(String own, String platform) {
        String v = own == null || own.isBlank() ? platform : own.trim();
        return v == null || v.isBlank() || NONE.equals(v.trim()) ? null : v.trim();
    }

    private static BigDecimal multiplier(String suffix) {
        if (suffix == null) {
            return BigDecimal.ONE;
        }
        return switch (suffix) {
            case "k" -> BigDecimal.TEN.pow(3);
            case "M" -> BigDecimal.TEN.pow(6);
            case "G" -> BigDecimal.TEN.pow(9);
            case "T" -> BigDecimal.TEN.pow(12);
            case "P" -> BigDecimal.TEN.pow(15);
            case "Ki" -> BigDecimal.valueOf(2).pow(10);
            case "Mi" -> BigDecimal.valueOf(2).pow(20);
            case "Gi" -> BigDecimal.valueOf(2).pow(30);
            case "Ti" -> BigDecimal.valueOf(2).pow(40);
            default -> BigDecimal.valueOf(2).pow(50);
        };
    }
}
