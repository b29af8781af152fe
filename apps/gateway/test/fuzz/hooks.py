"""schemathesis hooks of the cross-tenant run (fuzz/schemathesis.fuzz.test.ts; docs/reliability.md).

FUZZ_FOREIGN_IDS and FUZZ_FOREIGN_SECRETS (JSON lists) hold account A's ids and names while the
run authenticates as account B: any 2xx to a request naming one of A's ids, or any answer that
shows one of A's ids or names the request did not carry itself, is a failure.

Operations without a security requirement are left out: their URLs are capabilities
(/public/v2/storage/blobs/{blob_token}/..., /s/{token}), so whoever holds one may read it by
design. Guessed or forged tokens there are the tenancy matrix's (e2e/tenancy.e2e.test.ts).
"""
import json
import os
from urllib.parse import unquote

import schemathesis

FOREIGN_IDS = json.loads(os.environ.get("FUZZ_FOREIGN_IDS", "[]"))
FOREIGN_SECRETS = json.loads(os.environ.get("FUZZ_FOREIGN_SECRETS", "[]"))


def requires_credentials(operation):
    """The operation's own `security`, else the document's; none, or an empty `{}` among them, is public."""
    requirements = operation.definition.raw.get("security", operation.schema.raw_schema.get("security", []))
    return bool(requirements) and {} not in requirements


@schemathesis.check
def foreign_data_refused(ctx, response, case):
    """Account B never reads or changes account A's data."""
    if not FOREIGN_SECRETS or not requires_credentials(case.operation):
        return None
    body = response.request.body or b""
    sent = unquote(response.request.url or "") + " " + (body.decode("utf-8", "replace") if isinstance(body, bytes) else str(body))
    named = [i for i in FOREIGN_IDS if i in sent]
    if named and 200 <= response.status_code < 300:
        raise AssertionError(f"{response.status_code} to another account's id(s) {named}")
    text = response.content.decode("utf-8", "replace") if response.content else ""
    leaked = [s for s in FOREIGN_SECRETS if s in text and s not in sent]
    if leaked:
        raise AssertionError(f"the answer shows another account's data: {leaked}")
    return None
