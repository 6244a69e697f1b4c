// Generated from memsvc's /openapi.json by `npm run client:generate`; do not edit.
export interface paths {
    "/api/v1/activity/messages-per-day": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Messages per UTC day, for the dashboard chart */
        get: {
            parameters: {
                query?: {
                    /** @description UTC days up to and including today */
                    days?: number;
                };
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ActivityResponse"];
                    };
                };
                /** @description Every error: a message for people and a stable code for programs. */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Every error: a message for people and a stable code for programs. */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Every error: a message for people and a stable code for programs. */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/context/assemble": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Assemble a ranked, token-budgeted context for an LLM prompt
         * @description Array of messages with citation metadata by default; one context string with format "text" (or when max_tokens is given). See docs/api.md, "Context assembly".
         */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": components["schemas"]["AssembleContextBody"];
                };
            };
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["AssembleContextResponse"];
                    };
                };
                /** @description Every error: a message for people and a stable code for programs. */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Every error: a message for people and a stable code for programs. */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Every error: a message for people and a stable code for programs. */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Every error: a message for people and a stable code for programs. */
                503: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/conversations": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** List conversations */
        get: {
            parameters: {
                query?: {
                    /** @description true or false */
                    archived?: boolean;
                    /** @description Matches the folder and its subfolders. */
                    folder?: string;
                    label?: string;
                    order?: "desc" | "asc";
                    page?: number;
                    /** @description At most limits.max_page_size (1000). */
                    page_size?: number;
                    /** @description true or false */
                    pinned?: boolean;
                    sort?: "updated_at" | "created_at" | "importance_score" | "label";
                };
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ListConversationsResponse"];
                    };
                };
                /** @description Every error: a message for people and a stable code for programs. */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Every error: a message for people and a stable code for programs. */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Every error: a message for people and a stable code for programs. */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Every error: a message for people and a stable code for programs. */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
            };
        };
        put?: never;
        /** Create a conversation */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": components["schemas"]["CreateConversationBody"];
                };
            };
            responses: {
                /** @description Default Response */
                201: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["CreateConversationResponse"];
                    };
                };
                /** @description Every error: a message for people and a stable code for programs. */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Every error: a message for people and a stable code for programs. */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Every error: a message for people and a stable code for programs. */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Every error: a message for people and a stable code for programs. */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/conversations/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Get a conversation */
        get: {
            parameters: {
                query?: {
                    /** @description Return all messages inline. */
                    include?: "messages";
                };
                header?: never;
                path: {
                    id: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ConversationResponse"];
                    };
                };
                /** @description Every error: a message for people and a stable code for programs. */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Every error: a message for people and a stable code for programs. */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Every error: a message for people and a stable code for programs. */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Every error: a message for people and a stable code for programs. */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
            };
        };
        put?: never;
        post?: never;
        /** Delete with all messages and embeddings */
        delete: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    id: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Empty body */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["EmptyResponse"];
                    };
                };
                /** @description Every error: a message for people and a stable code for programs. */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Every error: a message for people and a stable code for programs. */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Every error: a message for people and a stable code for programs. */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Every error: a message for people and a stable code for programs. */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
            };
        };
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/conversations/{id}/archive": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        /** Archive */
        put: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    id: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Empty body */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["EmptyResponse"];
                    };
                };
                /** @description Every error: a message for people and a stable code for programs. */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Every error: a message for people and a stable code for programs. */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Every error: a message for people and a stable code for programs. */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Every error: a message for people and a stable code for programs. */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
            };
        };
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/conversations/{id}/folder": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        /** Move to a folder */
        put: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    id: string;
                };
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": components["schemas"]["UpdateFolderBody"];
                };
            };
            responses: {
                /** @description Empty body */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["EmptyResponse"];
                    };
                };
                /** @description Every error: a message for people and a stable code for programs. */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Every error: a message for people and a stable code for programs. */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Every error: a message for people and a stable code for programs. */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Every error: a message for people and a stable code for programs. */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
            };
        };
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/conversations/{id}/importance": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        /** Set importance (1-10) */
        put: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    id: string;
                };
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": components["schemas"]["SetImportanceBody"];
                };
            };
            responses: {
                /** @description Empty body */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["EmptyResponse"];
                    };
                };
                /** @description Every error: a message for people and a stable code for programs. */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Every error: a message for people and a stable code for programs. */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Every error: a message for people and a stable code for programs. */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Every error: a message for people and a stable code for programs. */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
            };
        };
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/conversations/{id}/label": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        /** Update label and folder */
        put: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    id: string;
                };
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": components["schemas"]["UpdateLabelBody"];
                };
            };
            responses: {
                /** @description Empty body */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["EmptyResponse"];
                    };
                };
                /** @description Every error: a message for people and a stable code for programs. */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Every error: a message for people and a stable code for programs. */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Every error: a message for people and a stable code for programs. */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Every error: a message for people and a stable code for programs. */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
            };
        };
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/conversations/{id}/messages": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Page through messages in order */
        get: {
            parameters: {
                query?: {
                    page?: number;
                    /** @description At most limits.max_page_size (1000). */
                    page_size?: number;
                };
                header?: never;
                path: {
                    id: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ListMessagesResponse"];
                    };
                };
                /** @description Every error: a message for people and a stable code for programs. */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Every error: a message for people and a stable code for programs. */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Every error: a message for people and a stable code for programs. */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Every error: a message for people and a stable code for programs. */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
            };
        };
        put?: never;
        /** Append messages */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    id: string;
                };
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": components["schemas"]["AppendMessagesBody"];
                };
            };
            responses: {
                /** @description Default Response */
                201: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["AppendMessagesResponse"];
                    };
                };
                /** @description Every error: a message for people and a stable code for programs. */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Every error: a message for people and a stable code for programs. */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Every error: a message for people and a stable code for programs. */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Every error: a message for people and a stable code for programs. */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/conversations/{id}/pin": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        /** Pin (importance 10) */
        put: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    id: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Empty body */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["EmptyResponse"];
                    };
                };
                /** @description Every error: a message for people and a stable code for programs. */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Every error: a message for people and a stable code for programs. */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Every error: a message for people and a stable code for programs. */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Every error: a message for people and a stable code for programs. */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
            };
        };
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/conversations/{id}/unarchive": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        /** Restore an archived conversation to active */
        put: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    id: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Empty body */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["EmptyResponse"];
                    };
                };
                /** @description Every error: a message for people and a stable code for programs. */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Every error: a message for people and a stable code for programs. */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Every error: a message for people and a stable code for programs. */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Every error: a message for people and a stable code for programs. */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
            };
        };
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/conversations/count": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Count conversations (all, by label, or by folder subtree) */
        get: {
            parameters: {
                query?: {
                    folder?: string;
                    label?: string;
                };
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["CountResponse"];
                    };
                };
                /** @description Every error: a message for people and a stable code for programs. */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Every error: a message for people and a stable code for programs. */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Every error: a message for people and a stable code for programs. */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Every error: a message for people and a stable code for programs. */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/embeddings/status": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Embedding queue, model and rebuild progress */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["EmbeddingStatusResponse"];
                    };
                };
                /** @description Every error: a message for people and a stable code for programs. */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/export": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Stream conversations with their messages (json, jsonl or markdown) */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": components["schemas"]["ExportBody"];
                };
            };
            responses: {
                /** @description The export, streamed as an attachment (Content-Disposition names the file). */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ExportStream"];
                        "application/x-ndjson": components["schemas"]["ExportStream"];
                        "text/markdown": components["schemas"]["ExportStream"];
                    };
                };
                /** @description Every error: a message for people and a stable code for programs. */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                        "application/x-ndjson": components["schemas"]["ErrorResponse"];
                        "text/markdown": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Every error: a message for people and a stable code for programs. */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                        "application/x-ndjson": components["schemas"]["ErrorResponse"];
                        "text/markdown": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Every error: a message for people and a stable code for programs. */
                413: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                        "application/x-ndjson": components["schemas"]["ErrorResponse"];
                        "text/markdown": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Every error: a message for people and a stable code for programs. */
                415: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                        "application/x-ndjson": components["schemas"]["ErrorResponse"];
                        "text/markdown": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Every error: a message for people and a stable code for programs. */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                        "application/x-ndjson": components["schemas"]["ErrorResponse"];
                        "text/markdown": components["schemas"]["ErrorResponse"];
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/folders": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Folder tree with conversation counts */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["FolderTreeResponse"];
                    };
                };
                /** @description Every error: a message for people and a stable code for programs. */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Every error: a message for people and a stable code for programs. */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Every error: a message for people and a stable code for programs. */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Every error: a message for people and a stable code for programs. */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/import": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Import a json or jsonl export (all records or none) */
        post: {
            parameters: {
                query?: {
                    /** @description The batch this one follows: it is stored only once that batch was stored, and refused with 409 OUT_OF_SEQUENCE (nothing stored) if that batch was not stored or does not arrive within 30 s. Lets a client send the next batch while one is being stored. */
                    after?: string;
                    /** @description This request's name in a sequenced import (letters, digits, "_", "-", "."; at most 100). A name once stored is refused again (409 CONFLICT); a name whose attempt stored nothing may be sent again. */
                    batch?: string;
                    /** @description When a conversation id exists already: skip the record, replace the stored conversation, or import under a new id. */
                    on_conflict?: "skip" | "replace" | "new_id";
                };
                header?: never;
                path?: never;
                cookie?: never;
            };
            /** @description A json export (application/json: {"conversations": [...]} or an array of records) or a jsonl export (application/x-ndjson: one conversation record per line). */
            requestBody: {
                content: {
                    "application/json": components["schemas"]["ImportBody"];
                    "application/jsonl": components["schemas"]["ImportBody"];
                    "application/jsonlines": components["schemas"]["ImportBody"];
                    "application/x-jsonlines": components["schemas"]["ImportBody"];
                    "application/x-ndjson": components["schemas"]["ImportBody"];
                };
            };
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ImportResponse"];
                    };
                };
                /** @description Every error: a message for people and a stable code for programs. */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Every error: a message for people and a stable code for programs. */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Every error: a message for people and a stable code for programs. */
                409: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Every error: a message for people and a stable code for programs. */
                413: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Every error: a message for people and a stable code for programs. */
                415: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Every error: a message for people and a stable code for programs. */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/keys": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Every key with its grants, last use and revocation (admin; never a secret) */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["KeyListResponse"];
                    };
                };
                /** @description Every error: a message for people and a stable code for programs. */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Every error: a message for people and a stable code for programs. */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Every error: a message for people and a stable code for programs. */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Every error: a message for people and a stable code for programs. */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
            };
        };
        put?: never;
        /** Create an API key with folder grants (admin); its secret is shown once */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": components["schemas"]["CreateKeyBody"];
                };
            };
            responses: {
                /** @description Default Response */
                201: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["CreatedKeyResponse"];
                    };
                };
                /** @description Every error: a message for people and a stable code for programs. */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Every error: a message for people and a stable code for programs. */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Every error: a message for people and a stable code for programs. */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Every error: a message for people and a stable code for programs. */
                409: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Every error: a message for people and a stable code for programs. */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/keys/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post?: never;
        /** Revoke a key (admin): its next request, and its tokens', get 401 on every replica */
        delete: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    id: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Empty body */
                204: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["EmptyResponse"];
                    };
                };
                /** @description Every error: a message for people and a stable code for programs. */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Every error: a message for people and a stable code for programs. */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Every error: a message for people and a stable code for programs. */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Every error: a message for people and a stable code for programs. */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Every error: a message for people and a stable code for programs. */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
            };
        };
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/keys/me": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The calling key: id, name, grants, admin */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["MeResponse"];
                    };
                };
                /** @description Every error: a message for people and a stable code for programs. */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Every error: a message for people and a stable code for programs. */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Every error: a message for people and a stable code for programs. */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Every error: a message for people and a stable code for programs. */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/keys/me/tokens": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Mint a short-lived tenant token with grants within the caller's */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": components["schemas"]["MintTokenBody"];
                };
            };
            responses: {
                /** @description Default Response */
                201: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["TokenResponse"];
                    };
                };
                /** @description Every error: a message for people and a stable code for programs. */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Every error: a message for people and a stable code for programs. */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Every error: a message for people and a stable code for programs. */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Every error: a message for people and a stable code for programs. */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/labels/suggest": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Suggest labels for a conversation */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": components["schemas"]["SuggestLabelsBody"];
                };
            };
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["SuggestLabelsResponse"];
                    };
                };
                /** @description Every error: a message for people and a stable code for programs. */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Every error: a message for people and a stable code for programs. */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Every error: a message for people and a stable code for programs. */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Every error: a message for people and a stable code for programs. */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/prune/dry-run": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Suggest idle conversations to archive (changes nothing) */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": components["schemas"]["DryRunBody"];
                };
            };
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["DryRunResponse"];
                    };
                };
                /** @description Every error: a message for people and a stable code for programs. */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Every error: a message for people and a stable code for programs. */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Every error: a message for people and a stable code for programs. */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Every error: a message for people and a stable code for programs. */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/prune/execute": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Archive the listed conversations (all or none) */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": components["schemas"]["ExecuteBody"];
                };
            };
            responses: {
                /** @description Empty body */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["EmptyResponse"];
                    };
                };
                /** @description Every error: a message for people and a stable code for programs. */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Every error: a message for people and a stable code for programs. */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Every error: a message for people and a stable code for programs. */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Every error: a message for people and a stable code for programs. */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/query": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Search messages by meaning, words or both */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": components["schemas"]["QueryBody"];
                };
            };
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["QueryResponse"];
                    };
                };
                /** @description Every error: a message for people and a stable code for programs. */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Every error: a message for people and a stable code for programs. */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Every error: a message for people and a stable code for programs. */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Every error: a message for people and a stable code for programs. */
                503: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/rebuild-embeddings": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Re-embed every message in the background (202) */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Empty body */
                202: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["EmptyResponse"];
                    };
                };
                /** @description Every error: a message for people and a stable code for programs. */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Every error: a message for people and a stable code for programs. */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/search/fts": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Full-text search (words, phrases, prefix*, AND, OR, NOT; the same on every storage driver) */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": components["schemas"]["FullTextBody"];
                };
            };
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["FullTextResponse"];
                    };
                };
                /** @description Every error: a message for people and a stable code for programs. */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Every error: a message for people and a stable code for programs. */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Every error: a message for people and a stable code for programs. */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Every error: a message for people and a stable code for programs. */
                503: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/summarize": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Summarize a conversation (daily, weekly or monthly) */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": components["schemas"]["SummarizeBody"];
                };
            };
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["SummaryResponse"];
                    };
                };
                /** @description Every error: a message for people and a stable code for programs. */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Every error: a message for people and a stable code for programs. */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Every error: a message for people and a stable code for programs. */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Every error: a message for people and a stable code for programs. */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Every error: a message for people and a stable code for programs. */
                503: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/health": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Health of each component (no auth)
         * @description Computed at most once per server.health_cache_ms (1 s), a tenth of that while unhealthy: calls within that window get the same report.
         */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["HealthResponse"];
                    };
                };
                /** @description Default Response */
                503: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["HealthResponse"];
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/health/detailed": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Database, bridge, embedding queue, index catch-up, free disk and proxy spool (API key) */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["DetailedHealthResponse"];
                    };
                };
                /** @description Every error: a message for people and a stable code for programs. */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Default Response */
                503: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["DetailedHealthResponse"];
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/mcp/tools": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The tools with their JSON schemas (protocol 1.0) */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ToolListing"];
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/mcp/tools/{tool}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Call a tool by name; the answer is the envelope {success, data, error} */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    tool: string;
                };
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": components["schemas"]["ToolParameters"];
                };
            };
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["AnyEnvelope"];
                    };
                };
                /** @description Default Response */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ToolFailure"];
                    };
                };
                /** @description Every error: a message for people and a stable code for programs. */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Default Response */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ToolFailure"];
                    };
                };
                /** @description Default Response */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ToolFailure"];
                    };
                };
                /** @description Default Response */
                413: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ToolFailure"];
                    };
                };
                /** @description Default Response */
                415: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ToolFailure"];
                    };
                };
                /** @description Every error: a message for people and a stable code for programs. */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Default Response */
                500: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ToolFailure"];
                    };
                };
                /** @description Default Response */
                503: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ToolFailure"];
                    };
                };
                /** @description Default Response */
                507: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ToolFailure"];
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/mcp/tools/memory_append": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Add messages to the end of an existing conversation (e.g. the latest exchange). */
        post: operations["memory_append"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/mcp/tools/memory_assemble_context": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Relevant past messages for a question or task, ranked and packed into a token budget, as prompt-ready text with sources. */
        post: operations["memory_assemble_context"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/mcp/tools/memory_delete": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Delete a conversation with all its messages, for good. Prefer memory_update with status "archived" to hide it. */
        post: operations["memory_delete"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/mcp/tools/memory_export": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Export one conversation with its messages as JSON data or Markdown text. */
        post: operations["memory_export"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/mcp/tools/memory_get_context": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Metadata of one conversation: label, status, folder, importance, counts, timestamps. */
        post: operations["memory_get_context"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/mcp/tools/memory_prune": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Suggest idle, low-importance conversations to archive. Changes nothing. */
        post: operations["memory_prune"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/mcp/tools/memory_search": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Search stored messages by meaning and words; returns ranked hits with their conversation. */
        post: operations["memory_search"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/mcp/tools/memory_stats": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Totals and average importance, overall or for one folder subtree or label (not both). */
        post: operations["memory_stats"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/mcp/tools/memory_store": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Store a conversation (label, folder, messages) in long-term memory. */
        post: operations["memory_store"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/mcp/tools/memory_summarize": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** A summary of a conversation over the last day, week or month (reused while nothing new arrived). */
        post: operations["memory_summarize"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/mcp/tools/memory_update": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Change the label, folder, status (active/archived) or importance of a conversation. */
        post: operations["memory_update"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/metrics": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Prometheus metrics (no auth) */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content?: never;
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/stats": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Service statistics */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["StatsResponse"];
                    };
                };
                /** @description Every error: a message for people and a stable code for programs. */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
}
export type webhooks = Record<string, never>;
export interface components {
    schemas: {
        ActivityResponse: {
            days: {
                /** @description YYYY-MM-DD (UTC) */
                date: string;
                /** @description Messages whose timestamp falls on this day */
                messages: number;
            }[];
            /** @description First day (YYYY-MM-DD, UTC) */
            from: string;
            /** @description Last day: today (UTC) */
            to: string;
        };
        AnyEnvelope: {
            data: {
                [key: string]: unknown;
            } | null;
            error: {
                code: string;
                message: string;
            } | null;
            success: boolean;
        };
        AppendMessagesBody: {
            messages: {
                /** @description At most limits.max_message_chars (100,000) characters. */
                content: string;
                metadata?: {
                    [key: string]: unknown;
                } | null;
                /** @description The author's name, as OpenAI's chat message name ("Melanie"): 1 to 100 characters after trimming, no control characters; null or absent: none. Named-author ranking reads it before a "Name:" at the start of content. */
                name?: string | null;
                /** @enum {string} */
                role: "user" | "assistant" | "system";
                /** @description When it was said (ISO 8601; without a zone, UTC); default now. */
                timestamp?: string;
            }[];
        };
        AppendMessagesResponse: {
            conversation_id: string;
            message_count: number;
            messages: {
                content: string;
                conversation_id: string;
                embedding_id: string | null;
                /** @enum {string} */
                embedding_status: "pending" | "done" | "failed";
                id: string;
                metadata: {
                    [key: string]: unknown;
                } | null;
                /** @description Who wrote the message (messages[].name); null when not given. */
                name: string | null;
                position: number;
                /** @enum {string} */
                role: "user" | "assistant" | "system";
                /** @description ISO 8601, UTC, with Z */
                timestamp: string;
            }[];
            session_count: number;
            word_count: number;
        };
        AppendToConversationBody: {
            /** @description UUID of the conversation */
            conversation_id: string;
            messages: {
                /** @description At most limits.max_message_chars (100,000) characters. */
                content: string;
                metadata?: {
                    [key: string]: unknown;
                } | null;
                /** @description The author's name, as OpenAI's chat message name ("Melanie"): 1 to 100 characters after trimming, no control characters; null or absent: none. Named-author ranking reads it before a "Name:" at the start of content. */
                name?: string | null;
                /** @enum {string} */
                role: "user" | "assistant" | "system";
                /** @description When it was said (ISO 8601; without a zone, UTC); default now. */
                timestamp?: string;
            }[];
        };
        AssembleContextBody: {
            /** @description Tokens (1 token = 4 characters), 100..200000; 15% is kept free for a system prompt. Default 4000. */
            context_budget?: number;
            /** @description Folders whose subtrees are left out. Default []. */
            excluded_folders?: string[];
            /**
             * @description messages (default): an array of messages; text: one context string with token_count, conversation_ids, message_count and sources. Default text when max_tokens is given.
             * @enum {string}
             */
            format?: "messages" | "text";
            /** @description text format: group the messages under a [label | folder | date] line per conversation and day. Default true. */
            include_metadata?: boolean;
            /** @description The text variant's name for context_budget; give one of the two. */
            max_tokens?: number;
            /** @description Conversation labels to boost (trimmed, case-insensitive). Default []. */
            preferred_labels?: string[];
            /** @description What the context is for; must not be blank. */
            query: string;
            /**
             * @description relevance (default): query relevance from full-text and vectors, plus a little importance, recency and label match; spec: 0.5*importance + 0.3*recency + 0.2*label_match over the spec's recall
             * @enum {string}
             */
            ranking?: "relevance" | "spec";
        };
        AssembleContextResponse: {
            content: string;
            conversation_id: string;
            embedding_id: string | null;
            id: string;
            metadata: {
                folder: string;
                importance_score: number;
                label: string;
                message_metadata: {
                    [key: string]: unknown;
                } | null;
                /** @description The ranking score, 0..1 */
                relevance_score: number;
                /** @description ISO 8601, UTC, with Z */
                timestamp: string;
            };
            /** @description Who wrote the message (messages[].name); null when not given. */
            name: string | null;
            /** @enum {string} */
            role: "user" | "assistant" | "system";
            /** @description ISO 8601, UTC, with Z */
            timestamp: string;
        }[] | {
            /** @description The messages as "role: content" lines; with metadata grouped per conversation and day under [label | folder | date], the best message's group first, each in conversation order */
            context: string;
            conversation_ids: string[];
            message_count: number;
            sources: {
                conversation_id: string;
                folder: string;
                label: string;
                message_id: string;
                relevance_score: number;
                /** @description ISO 8601, UTC, with Z */
                timestamp: string;
            }[];
            /** @description Estimated tokens of context (characters / 4, rounded up) */
            token_count: number;
        };
        AssembleContextTextBody: {
            /** @description Tokens (1 token = 4 characters), 100..200000; 15% is kept free for a system prompt. Default 4000. */
            context_budget?: number;
            /** @description Folders whose subtrees are left out. Default []. */
            excluded_folders?: string[];
            /** @description text format: group the messages under a [label | folder | date] line per conversation and day. Default true. */
            include_metadata?: boolean;
            /** @description Conversation labels to boost (trimmed, case-insensitive). Default []. */
            preferred_labels?: string[];
            /** @description What the context is for; must not be blank. */
            query: string;
            /**
             * @description relevance (default): query relevance from full-text and vectors, plus a little importance, recency and label match; spec: 0.5*importance + 0.3*recency + 0.2*label_match over the spec's recall
             * @enum {string}
             */
            ranking?: "relevance" | "spec";
        };
        ConversationIdBody: {
            /** @description UUID of the conversation */
            conversation_id: string;
        };
        ConversationResponse: {
            conversation_id: string;
            /** @description ISO 8601, UTC, with Z */
            created_at: string;
            folder: string;
            id: string;
            importance_score: number;
            label: string;
            /** @description ISO 8601, UTC, with Z */
            last_accessed: string;
            message_count: number;
            messages?: {
                content: string;
                conversation_id: string;
                embedding_id: string | null;
                /** @enum {string} */
                embedding_status: "pending" | "done" | "failed";
                id: string;
                metadata: {
                    [key: string]: unknown;
                } | null;
                /** @description Who wrote the message (messages[].name); null when not given. */
                name: string | null;
                position: number;
                /** @enum {string} */
                role: "user" | "assistant" | "system";
                /** @description ISO 8601, UTC, with Z */
                timestamp: string;
            }[];
            pinned: boolean;
            session_count: number;
            status: string;
            /** @description ISO 8601, UTC, with Z */
            updated_at: string;
            word_count: number;
        };
        ConversationStatsQuery: {
            folder?: string;
            label?: string;
        };
        CountResponse: {
            count: number;
            folder?: string;
            label?: string;
        };
        CreateConversationBody: {
            /** @description Path such as /work/backend; default "/". */
            folder?: string;
            /** @description Alias of importance_score. */
            importance?: number;
            importance_score?: number;
            /** @description Required; 1 to limits.max_label_chars (200) characters after trimming, no control characters. */
            label: string;
            /** @description May be empty; append more later. */
            messages: {
                /** @description At most limits.max_message_chars (100,000) characters. */
                content: string;
                metadata?: {
                    [key: string]: unknown;
                } | null;
                /** @description The author's name, as OpenAI's chat message name ("Melanie"): 1 to 100 characters after trimming, no control characters; null or absent: none. Named-author ranking reads it before a "Name:" at the start of content. */
                name?: string | null;
                /** @enum {string} */
                role: "user" | "assistant" | "system";
                /** @description When it was said (ISO 8601; without a zone, UTC); default now. */
                timestamp?: string;
            }[];
        };
        CreateConversationResponse: {
            conversation_id: string;
            /** @description ISO 8601, UTC, with Z */
            created_at: string;
            folder: string;
            id: string;
            importance_score: number;
            label: string;
            message_count: number;
            session_count: number;
            status: string;
            /** @description ISO 8601, UTC, with Z */
            updated_at: string;
            word_count: number;
        };
        CreatedKeyResponse: {
            admin: boolean;
            /** @description ISO 8601, UTC, with Z */
            created_at: string;
            grants: {
                /**
                 * @description write includes read
                 * @enum {string}
                 */
                access: "read" | "write";
                /** @description A folder subtree, e.g. /t/alice */
                folder: string;
            }[];
            id: string;
            /** @description The secret: shown this once, stored only as a hash */
            key: string;
            name: string;
        };
        CreateKeyBody: {
            /**
             * @description Full access, like the configured key
             * @default false
             */
            admin?: boolean;
            /** @description This key's own burst (with requests_per_second) */
            burst?: number;
            /**
             * @description Folder subtrees the key may read or write; at least one unless admin
             * @default []
             */
            grants?: {
                /**
                 * @description write includes read
                 * @enum {string}
                 */
                access: "read" | "write";
                /** @description A folder subtree, e.g. /t/alice */
                folder: string;
            }[];
            /** @description Unique among keys that are not revoked */
            name: string;
            /** @description This key's own rate limit (else rate_limit.requests_per_second) */
            requests_per_second?: number;
        };
        /**
         * ErrorResponse
         * @description Every error: a message for people and a stable code for programs.
         */
        "def-0": {
            code?: string;
            error: string;
        };
        DetailedHealthResponse: {
            bridge: {
                error?: string;
                model: string | null;
                /** @description Embedding provider the bridge reports: builtin, ollama or openai */
                provider: string | null;
                /** @description The bridge answered HTTP (even if it reports itself unhealthy) */
                reachable: boolean;
                status: "ok" | "error";
                url: string;
            };
            checks: {
                [key: string]: {
                    error?: string;
                    latency_ms: number;
                    status: "ok" | "error";
                } & {
                    [key: string]: unknown;
                };
            };
            database: {
                /** @description sqlite or postgres */
                driver: string;
                error?: string;
                status: "ok" | "error";
            };
            disk: {
                error?: string;
                /** @description Bytes this process may still write there */
                free_bytes: number | null;
                /** @description The data dir */
                path: string;
                total_bytes: number | null;
            };
            index: {
                indexed: number | null;
                /** @description Stored vectors not in the index yet */
                missing_vectors: number;
                /** @description Semantic results may miss messages until the catch-up is done (and say so) */
                partial: boolean;
                /** @description Catch-up of the local vector index after a start; database: the database searches its vectors itself (postgres) */
                state: "empty" | "loading" | "catching_up" | "ready" | "failed" | "database";
            };
            proxy: {
                enabled: boolean;
                /** @description Exchanges that could not be stored, kept in proxy-spool/failed */
                spool_failed: number | null;
                /** @description Chat exchanges spooled and not stored yet */
                spool_pending: number | null;
            };
            queue: {
                failed: number;
                /** @description Age of the pending message that arrived first, by its timestamp (an imported message keeps its original time) */
                oldest_pending_age_seconds: number | null;
                /** @description Messages waiting for their embedding */
                pending: number;
                worker: {
                    consecutive_failures: number;
                    last_error: string | null;
                    last_success_at: string | null;
                    running: boolean;
                };
            };
            status: "healthy" | "unhealthy";
            timestamp: string;
            uptime_seconds: number;
        };
        DryRunBody: {
            /**
             * @description Idle conversations with importance_score <= this are recommended for archiving; the others are listed as keep.
             * @default 5
             */
            importance_threshold?: number;
            /**
             * @description Most suggestions returned; total counts all.
             * @default 1000
             */
            limit?: number;
            /**
             * @description Suggest conversations neither read nor changed for this many days.
             * @default 30
             */
            threshold_days?: number;
        };
        DryRunResponse: {
            /** @description Idle conversations recommended for archiving, also beyond limit */
            archive_count: number;
            /** @description Sum of token_estimate over the archive suggestions returned */
            estimated_token_savings: number;
            /** @description ISO 8601, UTC, with Z */
            idle_since: string;
            importance_threshold: number;
            /** @description archive first, then keep; oldest activity first */
            suggestions: {
                conversation_id: string;
                conversation_label: string;
                importance_score: number;
                /** @description ISO 8601, UTC, with Z */
                last_accessed: string;
                /** @description ISO 8601, UTC, with Z */
                last_updated: string;
                message_count: number;
                /** @description First 100 characters of the first message */
                preview: string;
                reason: string;
                /** @enum {string} */
                recommendation: "archive" | "keep";
                /** @description Characters of all messages / 4 */
                token_estimate: number;
            }[];
            threshold_days: number;
            /** @description All idle conversations, also beyond limit */
            total: number;
        };
        EmbeddingStatusResponse: {
            dimension: number | null;
            done: number;
            failed: number;
            /** @description Of those, vectors waiting to go into the approximate graph; an exact scan finds them meanwhile */
            graph_backlog: number;
            index_catch_up: {
                /** @description Stored vectors the saved graph lacked, added since the start */
                added: number;
                error: string | null;
                finished_at: string | null;
                indexed: number;
                loaded_saved: boolean | null;
                started_at: string | null;
                /** @description empty, loading (the saved graph), catching_up (adding the vectors it lacks), ready or failed */
                state: string;
            };
            /** @description Vectors semantic search finds: in the approximate graph or waiting for it */
            indexed: number;
            model: string | null;
            model_mismatch: {
                current: string;
                recorded: string;
            } | null;
            pending: number;
            rebuild: {
                complete: boolean;
                done: number;
                started_at: string;
                total: number;
            } | null;
            /** @description Semantic search finds every stored message: nothing pending embedding or being handed to the index, no catch-up after a start running (vectors waiting for the graph are found by an exact scan) */
            searchable: boolean;
            worker: {
                [key: string]: unknown;
            };
        };
        /** @description Empty body */
        EmptyResponse: unknown;
        /** @description Every error: a message for people and a stable code for programs. */
        ErrorResponse: {
            code?: string;
            error: string;
        };
        ExecuteBody: {
            conversation_ids: string[];
        };
        ExportBody: {
            /** @description ISO 8601 date or date-time: conversations created at or before it (a date means its end). */
            end_date?: string;
            /** @description Only this folder and its subfolders. */
            folder?: string;
            /**
             * @default json
             * @enum {string}
             */
            format?: "json" | "jsonl" | "markdown";
            /** @description ISO 8601 date or date-time: conversations updated at or after it (a date means its start). */
            start_date?: string;
        };
        ExportConversationBody: {
            /** @description UUID of the conversation */
            conversation_id: string;
            /**
             * @default json
             * @enum {string}
             */
            format?: "json" | "markdown";
            /**
             * @description Message metadata, and in markdown the header
             * @default true
             */
            include_metadata?: boolean;
        };
        /** @description The export, streamed as an attachment (Content-Disposition names the file). */
        ExportStream: string;
        FolderTreeResponse: {
            folders: {
                /** @description Conversations directly in this folder */
                count: number;
                folder: string;
                /** @description Conversations in this folder and below */
                total: number;
            }[];
        };
        FullTextBody: {
            filters?: {
                /** @description true: only archived; false: only active; absent: both */
                archived?: boolean;
                /** @description Message timestamp lower bound, inclusive (ISO 8601; without a zone, UTC) */
                date_from?: string;
                /** @description Message timestamp upper bound, inclusive (ISO 8601; without a zone, UTC) */
                date_to?: string;
                /** @description Folder and its subfolders */
                folder?: string;
                importance_max?: number;
                importance_min?: number;
                label?: string;
            } | null;
            /** @default 10 */
            limit?: number;
            /** @default 0 */
            offset?: number;
            /** @description Words, "exact phrases", prefix*, AND, OR, NOT, parentheses; at most 64 terms */
            query: string;
        };
        FullTextResponse: {
            results: {
                content: string;
                conversation_id: string;
                embedding_id: string | null;
                folder: string;
                id: string;
                label: string;
                metadata: {
                    [key: string]: unknown;
                } | null;
                /** @description Who wrote the message (messages[].name); null when not given. */
                name: string | null;
                role: string;
                /** @description BM25 relevance scaled to 0..1 by the best match */
                score: number;
                timestamp: string;
            }[];
            /** @description Matches (counted up to max_query_results) */
            total: number;
        };
        HealthResponse: {
            checks: {
                [key: string]: {
                    error?: string;
                    latency_ms: number;
                    status: "ok" | "error";
                } & {
                    [key: string]: unknown;
                };
            };
            status: "healthy" | "unhealthy";
            timestamp: string;
            uptime_seconds: number;
        };
        /** @description A json export (application/json: {"conversations": [...]} or an array of records) or a jsonl export (application/x-ndjson: one conversation record per line). */
        ImportBody: unknown;
        ImportResponse: {
            /** @description Conversations stored (including replaced and renamed ones) */
            imported: number;
            /** @description Messages stored */
            messages: number;
            /** @description Conversations stored under a new id (on_conflict=new_id) */
            renamed: {
                from: string;
                to: string;
            }[];
            replaced: number;
            skipped: number;
        };
        KeyListResponse: {
            keys: {
                admin: boolean;
                burst: number | null;
                /** @description ISO 8601, UTC, with Z */
                created_at: string;
                grants: {
                    /**
                     * @description write includes read
                     * @enum {string}
                     */
                    access: "read" | "write";
                    /** @description A folder subtree, e.g. /t/alice */
                    folder: string;
                }[];
                id: string;
                /** @description ISO 8601, UTC, with Z */
                last_used_at: string | null;
                name: string;
                requests_per_second: number | null;
                /** @description ISO 8601, UTC, with Z */
                revoked_at: string | null;
            }[];
        };
        ListConversationsResponse: {
            page: number;
            page_size: number;
            results: {
                /** @description The label. */
                content: string;
                conversation_id: string;
                folder: string;
                label: string;
                /** @description Always the nil UUID for list items. */
                message_id: string;
                metadata: {
                    /** @description ISO 8601, UTC, with Z */
                    created_at: string;
                    folder: string;
                    importance_score: number;
                    message_count: number;
                    pinned: boolean;
                    session_count: number;
                    status: string;
                    /** @description ISO 8601, UTC, with Z */
                    updated_at: string;
                    word_count: number;
                };
                score: number;
                /** @description updated_at of the conversation */
                timestamp: string;
            }[];
            total: number;
        };
        ListMessagesResponse: {
            page: number;
            page_size: number;
            results: {
                content: string;
                conversation_id: string;
                embedding_id: string | null;
                /** @enum {string} */
                embedding_status: "pending" | "done" | "failed";
                id: string;
                metadata: {
                    [key: string]: unknown;
                } | null;
                /** @description Who wrote the message (messages[].name); null when not given. */
                name: string | null;
                position: number;
                /** @enum {string} */
                role: "user" | "assistant" | "system";
                /** @description ISO 8601, UTC, with Z */
                timestamp: string;
            }[];
            total: number;
        };
        MeResponse: {
            admin: boolean;
            grants: {
                /**
                 * @description write includes read
                 * @enum {string}
                 */
                access: "read" | "write";
                /** @description A folder subtree, e.g. /t/alice */
                folder: string;
            }[];
            id: string;
            name: string;
            /** @description ISO 8601, UTC, with Z */
            token_expires_at?: string;
        };
        MintTokenBody: {
            /**
             * @description Seconds, at most a day
             * @default 3600
             */
            expires_in?: number;
            grants: {
                /**
                 * @description write includes read
                 * @enum {string}
                 */
                access: "read" | "write";
                /** @description A folder subtree, e.g. /t/alice */
                folder: string;
            }[];
        };
        QueryBody: {
            filters?: {
                /** @description true: only archived; false: only active; absent: both */
                archived?: boolean;
                /** @description Message timestamp lower bound, inclusive (ISO 8601; without a zone, UTC) */
                date_from?: string;
                /** @description Message timestamp upper bound, inclusive (ISO 8601; without a zone, UTC) */
                date_to?: string;
                /** @description Folder and its subfolders */
                folder?: string;
                importance_max?: number;
                importance_min?: number;
                label?: string;
            } | null;
            /**
             * @description At most limits.max_query_results (1000)
             * @default 10
             */
            limit?: number;
            /**
             * @description hybrid (default: full-text + vectors, fused), semantic (vectors only) or keyword (full-text only)
             * @enum {string}
             */
            mode?: "hybrid" | "semantic" | "keyword";
            /**
             * @description offset + limit may not exceed max_query_results
             * @default 0
             */
            offset?: number;
            query: string;
        };
        QueryResponse: {
            /** @enum {string} */
            mode: "hybrid" | "semantic" | "keyword";
            page: number;
            page_size: number;
            /** @description true while the vector index is still catching up after a start: semantic results may miss messages */
            partial?: boolean;
            /** @description semantic and hybrid: messages stored but not embedded yet, which vectors cannot find so far */
            pending_embeddings?: number;
            results: {
                content: string;
                conversation_id: string;
                folder: string;
                label: string;
                message_id: string;
                metadata: {
                    embedding_id: string | null;
                    importance_score: number;
                    message_metadata: {
                        [key: string]: unknown;
                    } | null;
                    /** @description Who wrote the message (messages[].name); null when not given. */
                    name: string | null;
                    position: number;
                    role: string;
                    status: string;
                };
                score: number;
                timestamp: string;
            }[];
            /** @description Ranked matches available for paging (at most max_query_results) */
            total: number;
        };
        SetImportanceBody: {
            importance_score: number;
        };
        StatsResponse: {
            embeddings_count: number;
            /** @description Server errors since start: responses with status >= 500 other than 503 */
            errors_total: number;
            requests_total: number;
            storage_size_mb: number;
            total_conversations: number;
            total_messages: number;
            /** @description 503 responses since start: starting up, the bridge not ready or down, or load shed; not a fault of memsvc */
            unavailable_total: number;
            uptime_seconds: number;
        } & {
            [key: string]: unknown;
        };
        SuggestLabelsBody: {
            /** @description UUID of the conversation */
            conversation_id: string;
            /** @default 10 */
            limit?: number;
        };
        SuggestLabelsResponse: {
            conversation_id: string;
            /** @description Signals that contributed: embeddings, keyphrases, entities, llm */
            sources: string[];
            /** @description Highest confidence first */
            suggestions: {
                confidence: number;
                /** @description Already used by other conversations */
                is_existing: boolean;
                label: string;
                reason: string;
            }[];
        };
        SummarizeBody: {
            /** @description UUID of the conversation */
            conversation_id: string;
            /**
             * @description daily: last 24 h (~200 words); weekly: 7 daily summaries (~500); monthly: 4 weekly summaries (~1000)
             * @enum {string}
             */
            level: "daily" | "weekly" | "monthly";
            /** @description Regenerate even when a stored summary of the same messages exists. */
            refresh?: boolean;
        };
        SummaryResponse: {
            /**
             * @description The window ends now, or at the newest message when nothing was said in the window up to now.
             * @enum {string}
             */
            anchored_on: "now" | "newest_message";
            /** @description Reused: the window holds the same messages as when it was generated. */
            cached: boolean;
            conversation_id: string;
            /** @description ISO 8601, UTC, with Z */
            generated_at: string;
            level: string;
            /** @description What produced the summary (the bridge decides). */
            model: string | null;
            note?: string;
            /** @description Messages in the window */
            source_count: number;
            /** @description Empty when the window holds no messages (see note). */
            summary: string;
            /** @description ISO 8601, UTC, with Z */
            window_end: string;
            /** @description ISO 8601, UTC, with Z */
            window_start: string;
            word_count: number;
        };
        TokenResponse: {
            /** @description ISO 8601, UTC, with Z */
            expires_at: string;
            grants: {
                /**
                 * @description write includes read
                 * @enum {string}
                 */
                access: "read" | "write";
                /** @description A folder subtree, e.g. /t/alice */
                folder: string;
            }[];
            /** @description A signed JWT: present it as the API key */
            token: string;
        };
        ToolFailure: {
            /** @enum {object|null} */
            data: never | null;
            error: {
                code: string;
                message: string;
            };
            /** @enum {boolean} */
            success: false;
        } | components["schemas"]["def-0"];
        ToolListing: {
            protocol_version: string;
            tools: {
                description: string;
                input_schema: {
                    [key: string]: unknown;
                };
                name: string;
                output_schema: {
                    [key: string]: unknown;
                };
            }[];
        };
        ToolParameters: unknown;
        UpdateConversationBody: {
            /** @description UUID of the conversation */
            conversation_id: string;
            folder?: string;
            importance_score?: number;
            label?: string;
            /** @enum {string} */
            status?: "active" | "archived";
        };
        UpdateFolderBody: {
            folder: string;
        };
        UpdateLabelBody: {
            folder: string;
            label: string;
        };
    };
    responses: never;
    parameters: never;
    requestBodies: never;
    headers: never;
    pathItems: never;
}
export type $defs = Record<string, never>;
export interface operations {
    memory_append: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["AppendToConversationBody"];
            };
        };
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: {
                            conversation_id: string;
                            message_count: number;
                            messages: {
                                content: string;
                                conversation_id: string;
                                embedding_id: string | null;
                                /** @enum {string} */
                                embedding_status: "pending" | "done" | "failed";
                                id: string;
                                metadata: {
                                    [key: string]: unknown;
                                } | null;
                                /** @description Who wrote the message (messages[].name); null when not given. */
                                name: string | null;
                                position: number;
                                /** @enum {string} */
                                role: "user" | "assistant" | "system";
                                /** @description ISO 8601, UTC, with Z */
                                timestamp: string;
                            }[];
                            session_count: number;
                            word_count: number;
                        };
                        /** @enum {object|null} */
                        error: never | null;
                        /** @enum {boolean} */
                        success: true;
                    };
                };
            };
            /** @description Default Response */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ToolFailure"];
                };
            };
            /** @description Every error: a message for people and a stable code for programs. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Default Response */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ToolFailure"];
                };
            };
            /** @description Default Response */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ToolFailure"];
                };
            };
            /** @description Default Response */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ToolFailure"];
                };
            };
            /** @description Default Response */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ToolFailure"];
                };
            };
            /** @description Every error: a message for people and a stable code for programs. */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Default Response */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ToolFailure"];
                };
            };
            /** @description Default Response */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ToolFailure"];
                };
            };
            /** @description Default Response */
            507: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ToolFailure"];
                };
            };
        };
    };
    memory_assemble_context: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["AssembleContextTextBody"];
            };
        };
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: {
                            /** @description The messages as "role: content" lines; with metadata grouped per conversation and day under [label | folder | date], the best message's group first, each in conversation order */
                            context: string;
                            conversation_ids: string[];
                            message_count: number;
                            sources: {
                                conversation_id: string;
                                folder: string;
                                label: string;
                                message_id: string;
                                relevance_score: number;
                                /** @description ISO 8601, UTC, with Z */
                                timestamp: string;
                            }[];
                            /** @description Estimated tokens of context (characters / 4, rounded up) */
                            token_count: number;
                        };
                        /** @enum {object|null} */
                        error: never | null;
                        /** @enum {boolean} */
                        success: true;
                    };
                };
            };
            /** @description Default Response */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ToolFailure"];
                };
            };
            /** @description Every error: a message for people and a stable code for programs. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Default Response */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ToolFailure"];
                };
            };
            /** @description Default Response */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ToolFailure"];
                };
            };
            /** @description Default Response */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ToolFailure"];
                };
            };
            /** @description Default Response */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ToolFailure"];
                };
            };
            /** @description Every error: a message for people and a stable code for programs. */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Default Response */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ToolFailure"];
                };
            };
            /** @description Default Response */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ToolFailure"];
                };
            };
            /** @description Default Response */
            507: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ToolFailure"];
                };
            };
        };
    };
    memory_delete: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["ConversationIdBody"];
            };
        };
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: {
                            conversation_id: string;
                            deleted: boolean;
                        };
                        /** @enum {object|null} */
                        error: never | null;
                        /** @enum {boolean} */
                        success: true;
                    };
                };
            };
            /** @description Default Response */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ToolFailure"];
                };
            };
            /** @description Every error: a message for people and a stable code for programs. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Default Response */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ToolFailure"];
                };
            };
            /** @description Default Response */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ToolFailure"];
                };
            };
            /** @description Default Response */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ToolFailure"];
                };
            };
            /** @description Default Response */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ToolFailure"];
                };
            };
            /** @description Every error: a message for people and a stable code for programs. */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Default Response */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ToolFailure"];
                };
            };
            /** @description Default Response */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ToolFailure"];
                };
            };
            /** @description Default Response */
            507: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ToolFailure"];
                };
            };
        };
    };
    memory_export: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["ExportConversationBody"];
            };
        };
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: {
                            conversation: {
                                /** @description ISO 8601, UTC, with Z */
                                created_at: string;
                                folder: string;
                                id: string;
                                importance_score: number;
                                label: string;
                                session_count: number;
                                status: string;
                                /** @description ISO 8601, UTC, with Z */
                                updated_at: string;
                                word_count: number;
                            };
                            /** @enum {string} */
                            format: "json" | "markdown";
                            include_metadata: boolean;
                            /** @description format markdown: the conversation as one Markdown document */
                            markdown?: string;
                            messages: {
                                content: string;
                                metadata?: {
                                    [key: string]: unknown;
                                } | null;
                                /** @description Who wrote the message (messages[].name); null when not given. */
                                name: string | null;
                                /** @enum {string} */
                                role: "user" | "assistant" | "system";
                                /** @description ISO 8601, UTC, with Z */
                                timestamp: string;
                            }[];
                        };
                        /** @enum {object|null} */
                        error: never | null;
                        /** @enum {boolean} */
                        success: true;
                    };
                };
            };
            /** @description Default Response */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ToolFailure"];
                };
            };
            /** @description Every error: a message for people and a stable code for programs. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Default Response */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ToolFailure"];
                };
            };
            /** @description Default Response */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ToolFailure"];
                };
            };
            /** @description Default Response */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ToolFailure"];
                };
            };
            /** @description Default Response */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ToolFailure"];
                };
            };
            /** @description Every error: a message for people and a stable code for programs. */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Default Response */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ToolFailure"];
                };
            };
            /** @description Default Response */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ToolFailure"];
                };
            };
            /** @description Default Response */
            507: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ToolFailure"];
                };
            };
        };
    };
    memory_get_context: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["ConversationIdBody"];
            };
        };
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: {
                            conversation_id: string;
                            /** @description ISO 8601, UTC, with Z */
                            created_at: string;
                            folder: string;
                            importance_score: number;
                            label: string;
                            message_count: number;
                            session_count: number;
                            status: string;
                            /** @description ISO 8601, UTC, with Z */
                            updated_at: string;
                            word_count: number;
                        };
                        /** @enum {object|null} */
                        error: never | null;
                        /** @enum {boolean} */
                        success: true;
                    };
                };
            };
            /** @description Default Response */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ToolFailure"];
                };
            };
            /** @description Every error: a message for people and a stable code for programs. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Default Response */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ToolFailure"];
                };
            };
            /** @description Default Response */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ToolFailure"];
                };
            };
            /** @description Default Response */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ToolFailure"];
                };
            };
            /** @description Default Response */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ToolFailure"];
                };
            };
            /** @description Every error: a message for people and a stable code for programs. */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Default Response */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ToolFailure"];
                };
            };
            /** @description Default Response */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ToolFailure"];
                };
            };
            /** @description Default Response */
            507: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ToolFailure"];
                };
            };
        };
    };
    memory_prune: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["DryRunBody"];
            };
        };
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: {
                            estimated_token_savings: number;
                            importance_threshold: number;
                            /** @description archive first, then keep; oldest activity first */
                            suggestions: {
                                conversation_id: string;
                                conversation_label: string;
                                importance_score: number;
                                /** @description ISO 8601, UTC, with Z */
                                last_accessed: string;
                                /** @description ISO 8601, UTC, with Z */
                                last_updated: string;
                                message_count: number;
                                /** @description First 100 characters of the first message */
                                preview: string;
                                reason: string;
                                /** @enum {string} */
                                recommendation: "archive" | "keep";
                                /** @description Characters of all messages / 4 */
                                token_estimate: number;
                            }[];
                            threshold_days: number;
                            /** @description All idle conversations, also beyond limit */
                            total_suggestions: number;
                        };
                        /** @enum {object|null} */
                        error: never | null;
                        /** @enum {boolean} */
                        success: true;
                    };
                };
            };
            /** @description Default Response */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ToolFailure"];
                };
            };
            /** @description Every error: a message for people and a stable code for programs. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Default Response */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ToolFailure"];
                };
            };
            /** @description Default Response */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ToolFailure"];
                };
            };
            /** @description Default Response */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ToolFailure"];
                };
            };
            /** @description Default Response */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ToolFailure"];
                };
            };
            /** @description Every error: a message for people and a stable code for programs. */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Default Response */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ToolFailure"];
                };
            };
            /** @description Default Response */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ToolFailure"];
                };
            };
            /** @description Default Response */
            507: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ToolFailure"];
                };
            };
        };
    };
    memory_search: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["QueryBody"];
            };
        };
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: {
                            limit: number;
                            /** @enum {string} */
                            mode: "hybrid" | "semantic" | "keyword";
                            offset: number;
                            query: string;
                            results: {
                                content: string;
                                conversation_id: string;
                                folder: string;
                                label: string;
                                message_id: string;
                                metadata: {
                                    embedding_id: string | null;
                                    importance_score: number;
                                    message_metadata: {
                                        [key: string]: unknown;
                                    } | null;
                                    /** @description Who wrote the message (messages[].name); null when not given. */
                                    name: string | null;
                                    position: number;
                                    role: string;
                                    status: string;
                                };
                                score: number;
                                timestamp: string;
                            }[];
                            /** @description Ranked matches available for paging (at most max_query_results) */
                            total_results: number;
                        };
                        /** @enum {object|null} */
                        error: never | null;
                        /** @enum {boolean} */
                        success: true;
                    };
                };
            };
            /** @description Default Response */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ToolFailure"];
                };
            };
            /** @description Every error: a message for people and a stable code for programs. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Default Response */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ToolFailure"];
                };
            };
            /** @description Default Response */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ToolFailure"];
                };
            };
            /** @description Default Response */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ToolFailure"];
                };
            };
            /** @description Default Response */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ToolFailure"];
                };
            };
            /** @description Every error: a message for people and a stable code for programs. */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Default Response */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ToolFailure"];
                };
            };
            /** @description Default Response */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ToolFailure"];
                };
            };
            /** @description Default Response */
            507: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ToolFailure"];
                };
            };
        };
    };
    memory_stats: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["ConversationStatsQuery"];
            };
        };
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: {
                            /** @description Mean importance_score, rounded to 2 decimals; 0 when nothing matches */
                            average_importance: number;
                            /** @description The folder filter as applied (normalized) */
                            folder?: string;
                            /** @description Without label: one entry per folder */
                            folders?: {
                                average_importance: number;
                                count: number;
                                folder: string;
                            }[];
                            label?: string;
                            /** @description With label: one entry per label */
                            labels?: {
                                average_importance: number;
                                count: number;
                                label: string;
                            }[];
                            total_conversations: number;
                        };
                        /** @enum {object|null} */
                        error: never | null;
                        /** @enum {boolean} */
                        success: true;
                    };
                };
            };
            /** @description Default Response */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ToolFailure"];
                };
            };
            /** @description Every error: a message for people and a stable code for programs. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Default Response */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ToolFailure"];
                };
            };
            /** @description Default Response */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ToolFailure"];
                };
            };
            /** @description Default Response */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ToolFailure"];
                };
            };
            /** @description Default Response */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ToolFailure"];
                };
            };
            /** @description Every error: a message for people and a stable code for programs. */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Default Response */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ToolFailure"];
                };
            };
            /** @description Default Response */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ToolFailure"];
                };
            };
            /** @description Default Response */
            507: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ToolFailure"];
                };
            };
        };
    };
    memory_store: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["CreateConversationBody"];
            };
        };
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: {
                            conversation_id: string;
                            /** @description ISO 8601, UTC, with Z */
                            created_at: string;
                            folder: string;
                            id: string;
                            importance_score: number;
                            label: string;
                            message_count: number;
                            session_count: number;
                            status: string;
                            /** @description ISO 8601, UTC, with Z */
                            updated_at: string;
                            word_count: number;
                        };
                        /** @enum {object|null} */
                        error: never | null;
                        /** @enum {boolean} */
                        success: true;
                    };
                };
            };
            /** @description Default Response */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ToolFailure"];
                };
            };
            /** @description Every error: a message for people and a stable code for programs. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Default Response */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ToolFailure"];
                };
            };
            /** @description Default Response */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ToolFailure"];
                };
            };
            /** @description Default Response */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ToolFailure"];
                };
            };
            /** @description Default Response */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ToolFailure"];
                };
            };
            /** @description Every error: a message for people and a stable code for programs. */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Default Response */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ToolFailure"];
                };
            };
            /** @description Default Response */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ToolFailure"];
                };
            };
            /** @description Default Response */
            507: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ToolFailure"];
                };
            };
        };
    };
    memory_summarize: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["SummarizeBody"];
            };
        };
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: {
                            /**
                             * @description The window ends now, or at the newest message when nothing was said in the window up to now.
                             * @enum {string}
                             */
                            anchored_on: "now" | "newest_message";
                            /** @description Reused: the window holds the same messages as when it was generated. */
                            cached: boolean;
                            conversation_id: string;
                            /** @description ISO 8601, UTC, with Z */
                            generated_at: string;
                            level: string;
                            /** @description What produced the summary (the bridge decides). */
                            model: string | null;
                            note?: string;
                            /** @description Messages in the window */
                            source_count: number;
                            /** @description Empty when the window holds no messages (see note). */
                            summary: string;
                            /** @description ISO 8601, UTC, with Z */
                            window_end: string;
                            /** @description ISO 8601, UTC, with Z */
                            window_start: string;
                            word_count: number;
                        };
                        /** @enum {object|null} */
                        error: never | null;
                        /** @enum {boolean} */
                        success: true;
                    };
                };
            };
            /** @description Default Response */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ToolFailure"];
                };
            };
            /** @description Every error: a message for people and a stable code for programs. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Default Response */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ToolFailure"];
                };
            };
            /** @description Default Response */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ToolFailure"];
                };
            };
            /** @description Default Response */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ToolFailure"];
                };
            };
            /** @description Default Response */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ToolFailure"];
                };
            };
            /** @description Every error: a message for people and a stable code for programs. */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Default Response */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ToolFailure"];
                };
            };
            /** @description Default Response */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ToolFailure"];
                };
            };
            /** @description Default Response */
            507: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ToolFailure"];
                };
            };
        };
    };
    memory_update: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["UpdateConversationBody"];
            };
        };
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: {
                            conversation_id: string;
                            message: string;
                            /** @description label, folder, status, importance_score: the fields given */
                            updated_fields: string[];
                        };
                        /** @enum {object|null} */
                        error: never | null;
                        /** @enum {boolean} */
                        success: true;
                    };
                };
            };
            /** @description Default Response */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ToolFailure"];
                };
            };
            /** @description Every error: a message for people and a stable code for programs. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Default Response */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ToolFailure"];
                };
            };
            /** @description Default Response */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ToolFailure"];
                };
            };
            /** @description Default Response */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ToolFailure"];
                };
            };
            /** @description Default Response */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ToolFailure"];
                };
            };
            /** @description Every error: a message for people and a stable code for programs. */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Default Response */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ToolFailure"];
                };
            };
            /** @description Default Response */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ToolFailure"];
                };
            };
            /** @description Default Response */
            507: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ToolFailure"];
                };
            };
        };
    };
}
