package io.crater.job;

import io.crater.account.AccountService;
import io.crater.account.Memberships;
import io.crater.events.TopicAuthorizer;
import io.crater.identity.Caller;
import io.crater.identity.CurrentUser;
import io.crater.identity.TokenService.TokenUser;
import io.crater.platform.ApiException;
import io.quarkus.hibernate.reactive.panache.Panache;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;

/**
 * Job topics: {@code jobs} (every job the viewer may see), {@code jobs:<account>} (one account's, for its
 * members) and {@code job:<id>} (one job). Subscribing loads the viewer's memberships, by which every job event
 * is filtered.
 */
@ApplicationScoped
public class JobTopics implements TopicAuthorizer {

    @Inject
    Memberships memberships;

    @Inject
    AccountService accounts;

    @Inject
    JobQueries queries;

    @Override
    public boolean handles(String topic) {
        return topic.equals("jobs") || topic.startsWith("jobs:") || topic.startsWith("job:");
    }

    @Override
    public Uni<Void> authorize(String topic, TokenUser user) {
        Uni<?> check;
        if (topic.startsWith("job:")) {
            check = Panache.withSession(() -> queries.visible(topic.substring(4), new Caller(user, null)));
        } else if (topic.startsWith("jobs:") && !CurrentUser.isAdmin(user)) {
            check = Panache.withSession(() -> accounts.isMember(topic.substring(5), user.id()))
                    .map(member -> {
                        if (!member) {
                            throw ApiException.forbidden(
                                    "NotAMember", "you are not a member of account '" + topic.substring(5) + "'");
                        }
                        return member;
                    });
        } else {
            check = Uni.createFrom().voidItem();
        }
        return check.flatMap(x -> memberships.load(user.id())).replaceWithVoid();
    }

    @Override
    public String describe() {
        return "jobs, jobs:<account>, job:<id>";
    }
}
