// minihub's GraphiQL page: mounts the vendored GraphiQL on /api/graphql, with the query and variables
// of ?query= / ?variables= and a headers editor for the bearer token. It must never put a token in
// the URL or send a request anywhere but this page's own origin.
/* global React, ReactDOM, GraphiQL */
(function boot() {
  'use strict';

  var DEFAULT_QUERY = [
    '# Find anything in the sample: a search,',
    "# as DataHub's own search box sends it.",
    '# With auth on (the default), paste the',
    '# token from the server banner after',
    '# "Bearer " under Headers, then press ▶.',
    '{',
    '  searchAcrossEntities(',
    '    input: {query: "orders", count: 5}',
    '  ) {',
    '    total',
    '    searchResults {',
    '      entity {',
    '        urn',
    '        type',
    '        ... on Dataset {',
    '          properties { name description }',
    '          schemaMetadata {',
    '            fields { fieldPath description }',
    '          }',
    '        }',
    '      }',
    '    }',
    '  }',
    '}',
    '',
  ].join('\n');

  // The first time only: afterwards the headers a person typed, token included, come back from
  // this browser's localStorage (see restoreHeaders).
  var DEFAULT_HEADERS = '{"Authorization": "Bearer "}';

  var params = new URLSearchParams(window.location.search);
  var urlQuery = params.get('query');
  var urlVariables = params.get('variables');

  // Plain JSON over POST: minihub answers neither multipart (@defer) nor subscriptions.
  var send = GraphiQL.createFetcher({ url: '/api/graphql', enableIncrementalDelivery: false });

  // GraphiQL introspects once, when it mounts (and again whenever the fetcher changes). With
  // authentication on and no token yet that attempt gets a 401, so docs and autocompletion would
  // stay empty after the token is pasted. A new fetcher after a headers edit makes it try again.
  var schemaLoaded = false;
  var retryTimer = null;
  var fetcher = newFetcher();

  function newFetcher() {
    return function fetcher(graphQLParams, options) {
      return send(graphQLParams, options);
    };
  }

  function onSchemaChange() {
    schemaLoaded = true;
  }

  // GraphiQL 3.8.3 loses typed headers in two ways: it blanks 'graphiql:headers' on every page
  // load (it applies its persistence setting before the headers editor exists), and it saves tabs
  // only after 500 ms of quiet, so a reload soon after an edit drops it. The page therefore keeps
  // its own copy, written on every edit, and puts it back into GraphiQL's storage before GraphiQL
  // reads it. Switching "persist headers" off in GraphiQL's settings removes the copy too.
  var SAVED_HEADERS = 'minihub:headers';
  var savedHeaders = restoreHeaders();
  // New tabs start from defaultHeaders: give them the latest headers, so the token is pasted once.
  var defaultHeaders = savedHeaders || DEFAULT_HEADERS;

  function persisting() {
    return storageGet('graphiql:shouldPersistHeaders') !== 'false';
  }

  function restoreHeaders() {
    var saved = storageGet(SAVED_HEADERS);
    if (saved === null) return null;
    if (!persisting()) {
      storageRemove(SAVED_HEADERS);
      return null;
    }
    storageSet('graphiql:headers', saved);
    try {
      var state = JSON.parse(storageGet('graphiql:tabState') || 'null');
      var tab = state && Array.isArray(state.tabs) ? state.tabs[state.activeTabIndex] : null;
      if (tab) {
        tab.headers = saved;
        storageSet('graphiql:tabState', JSON.stringify(state));
      }
    } catch (error) {
      // Unreadable tabs: GraphiQL starts a fresh tab, and it gets the saved headers.
    }
    return saved;
  }

  function saveHeaders(text) {
    if (persisting()) storageSet(SAVED_HEADERS, text);
    else storageRemove(SAVED_HEADERS);
  }

  window.addEventListener('pagehide', function leaving() {
    if (!persisting()) storageRemove(SAVED_HEADERS);
    saveOpenTab();
  });

  // GraphiQL also saves an edited query or variables only 100 + 500 ms after the last keystroke, so
  // a reload sooner brought back the one before. Leaving the page writes the open tab's editors into
  // GraphiQL's saved tabs and into the keys it matches them by on load (a mismatch opens a new tab).
  // When the saved tabs are not the ones on screen (one added or closed just now) it leaves them be.
  function saveOpenTab() {
    var query = editorText(document.querySelector('.graphiql-query-editor .CodeMirror'));
    var variables = editorText(document.querySelector('.graphiql-editor-tool .graphiql-editor .CodeMirror'));
    if (query === null || variables === null) return;
    try {
      var state = JSON.parse(storageGet('graphiql:tabState') || 'null');
      var shown = document.querySelectorAll('.graphiql-tab');
      // GraphiQL shows its tab bar only with two tabs or more.
      var active = 0;
      for (var index = 0; index < shown.length; index++) {
        if (shown[index].classList.contains('graphiql-tab-active')) active = index;
      }
      if (!state || !Array.isArray(state.tabs) || state.tabs.length !== Math.max(shown.length, 1)) return;
      state.activeTabIndex = active;
      state.tabs[active].query = query;
      state.tabs[active].variables = variables;
      storageSet('graphiql:tabState', JSON.stringify(state));
      storageSet('graphiql:query', query);
      storageSet('graphiql:variables', variables);
    } catch (error) {
      // Unreadable tabs: GraphiQL's own save stands.
    }
  }

  // CodeMirror 5 keeps its editor on the element it renders into.
  function editorText(element) {
    return element && element.CodeMirror ? element.CodeMirror.getValue() : null;
  }

  // localStorage can be disabled or full; the page then works without remembering anything.
  function storageGet(key) {
    try {
      return window.localStorage.getItem(key);
    } catch (error) {
      return null;
    }
  }

  function storageSet(key, value) {
    try {
      window.localStorage.setItem(key, value);
    } catch (error) {
      // Not remembered: see storageGet.
    }
  }

  function storageRemove(key) {
    try {
      window.localStorage.removeItem(key);
    } catch (error) {
      // See storageGet.
    }
  }

  function onEditHeaders(text) {
    saveHeaders(text);
    window.clearTimeout(retryTimer);
    // Wait until typing or pasting settles, so a half-typed token does not cost a request.
    retryTimer = window.setTimeout(function headersSettled() {
      if (!isJsonObject(text)) return;
      defaultHeaders = text;
      if (!schemaLoaded) fetcher = newFetcher();
      render();
    }, 400);
  }

  function isJsonObject(text) {
    try {
      var value = JSON.parse(text);
      return value !== null && typeof value === 'object' && !Array.isArray(value);
    } catch (error) {
      return false;
    }
  }

  var root = ReactDOM.createRoot(document.getElementById('graphiql'));

  function render() {
    var props = {
      fetcher: fetcher,
      defaultQuery: DEFAULT_QUERY,
      defaultHeaders: defaultHeaders,
      defaultEditorToolsVisibility: 'headers',
      isHeadersEditorEnabled: true,
      shouldPersistHeaders: true,
      onEditHeaders: onEditHeaders,
      onSchemaChange: onSchemaChange,
    };
    // A link's ?query= / ?variables= win over what this browser had stored (GraphiQL opens a tab).
    if (urlQuery !== null) props.query = urlQuery;
    if (urlVariables !== null) props.variables = urlVariables;
    root.render(React.createElement(GraphiQL, props));
  }

  render();
})();
