package io.crater.platform;

/**
 * Who did something, as the audit trail records it.
 *
 * @param userId null for Crater itself
 * @param account the slug of the account the action was taken in, when there is one
 */
public record Actor(Long userId, String username, String clientAddress, String account) {

    /** Crater itself (admission, reclaim, the idle sweeper). */
    public static Actor system() {
        return new Actor(null, "crater", null, null);
    }
}
