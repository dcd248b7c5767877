package io.crater.policy;

import java.util.Map;
import java.util.TreeMap;

/**
 * What one member may use inside an account: a cap per resource (milli-units) and counts of running jobs and
 * interactive sessions. A missing entry or null count means no limit.
 */
public record MemberLimits(Map<String, Long> resources, Integer maxRunningJobs, Integer maxInteractiveSessions) {

    public static final MemberLimits NONE = new MemberLimits(Map.of(), null, null);

    public MemberLimits {
        resources = Map.copyOf(new TreeMap<>(resources));
    }

    /** The member's override on top of the account default: each field set in the override wins. */
    public static MemberLimits effective(MemberLimits accountDefault, MemberLimits override) {
        Map<String, Long> merged = new TreeMap<>(accountDefault.resources());
        merged.putAll(override.resources());
        return new MemberLimits(
                merged,
                override.maxRunningJobs() != null ? override.maxRunningJobs() : accountDefault.maxRunningJobs(),
                override.maxInteractiveSessions() != null
                        ? override.maxInteractiveSessions()
                        : accountDefault.maxInteractiveSessions());
    }
}
