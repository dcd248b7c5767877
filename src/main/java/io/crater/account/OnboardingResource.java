package io.crater.account;

import io.crater.identity.CurrentUser;
import io.quarkus.security.Authenticated;
import io.smallrye.mutiny.Uni;
import jakarta.inject.Inject;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;
import org.eclipse.microprofile.openapi.annotations.Operation;
import org.eclipse.microprofile.openapi.annotations.tags.Tag;

/** The platform admin's first-run checklist. */
@Path("/api/v1/onboarding")
@Tag(name = "accounts")
@Authenticated
@Produces(MediaType.APPLICATION_JSON)
public class OnboardingResource {

    @Inject
    CurrentUser current;

    @Inject
    OnboardingService onboarding;

    @GET
    @Operation(
            summary =
                    "The first-run checklist (platform admins): password changed, a team account with a quota, people added, a job submitted")
    public Uni<OnboardingService.Checklist> checklist() {
        return current.caller().flatMap(onboarding::checklist);
    }
}
