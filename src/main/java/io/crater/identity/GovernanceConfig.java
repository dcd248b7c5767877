package io.crater.identity;

import io.smallrye.config.ConfigMapping;
import io.smallrye.config.WithDefault;
import java.time.Duration;

/** Settings of users, accounts and approvals. */
@ConfigMapping(prefix = "crater.governance")
public interface GovernanceConfig {

    /**
     * Quota of every new personal account, guaranteed = max, as {@code resource=quantity} pairs separated by
     * commas ({@code cpu=8,memory=32Gi,nvidia-rtx-4090=1}); empty for none.
     */
    @WithDefault("cpu=8,memory=32Gi")
    String personalQuota();

    /** Whether people may create their own user at {@code POST /api/v1/auth/signup}. */
    @WithDefault("false")
    boolean selfSignup();

    /** Shortest password a person may set. */
    @WithDefault("10")
    int minPasswordLength();

    /** Longest job lock or extension one request may ask for. */
    @WithDefault("7d")
    Duration lockMaxLength();

    /** Lock requests shorter than this are approved at once by Crater. */
    @WithDefault("4h")
    Duration lockAutoApproveBelow();

    /** Lock requests per job within {@link #lockWindow()}. */
    @WithDefault("3")
    int lockMaxPerJob();

    /** The window lock requests per job are counted in. */
    @WithDefault("30d")
    Duration lockWindow();
}
