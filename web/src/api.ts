// The page's only data source: the GraphQL API at /graphql.

export class ApiError extends Error {
  readonly code: string | null;

  constructor(message: string, code: string | null = null) {
    super(message);
    this.code = code;
  }
}

interface GraphQLResponse<T> {
  data?: T | null;
  errors?: { message: string; extensions?: { code?: string } }[];
}

export async function graphql<T>(query: string, variables: Record<string, unknown>): Promise<T> {
  let response: Response;
  try {
    response = await fetch("/graphql", {
      method: "POST",
      headers: {
        "content-type": "application/json",
        accept: "application/graphql-response+json, application/json;q=0.9",
      },
      body: JSON.stringify({ query, variables }),
    });
  } catch (error) {
    throw new ApiError(`the API did not answer (${String(error)}); is the server running?`);
  }
  let body: GraphQLResponse<T>;
  try {
    body = (await response.json()) as GraphQLResponse<T>;
  } catch {
    throw new ApiError(`the API answered ${response.status} without JSON`);
  }
  const first = body.errors?.[0];
  if (first) {
    throw new ApiError(first.message, first.extensions?.code ?? null);
  }
  if (!body.data) {
    throw new ApiError(`the API answered ${response.status} without data`);
  }
  return body.data;
}

export interface ResearcherHit {
  id: string;
  name: string;
  orcid: string | null;
  paperCount: number;
  citationCount: number;
  hIndex: number | null;
  altNames: string[];
}

// `id: key`: the page keys researchers and papers as the site's addresses and the network do.
const HIT_FIELDS = "id: key name orcid paperCount citationCount hIndex altNames";

export const SEARCH = `
query Search($query: String!) {
  search(query: $query, kinds: [RESEARCHER], first: 10) {
    edges { score node { __typename ... on Researcher { ${HIT_FIELDS} } } }
  }
}`;

export const LOOKUP = `
query Lookup($id: ID, $orcid: String, $s2Id: String, $openalexId: String) {
  researcher(id: $id, orcid: $orcid, s2Id: $s2Id, openalexId: $openalexId) { ${HIT_FIELDS} }
}`;

export interface NetworkFilters {
  depth: number;
  maxNodes: number;
  minJointPapers: number;
  yearFrom: number | null;
  yearTo: number | null;
  maxAuthors: number | null;
}

export interface NetworkNodeData {
  id: string;
  name: string;
  paperCount: number;
  citationCount: number;
  meanYear: number | null;
  hop: number;
  community: number;
  x: number;
  y: number;
}

export interface NetworkEdgeData {
  source: string;
  target: string;
  jointPapers: number;
  firstYear: number | null;
  lastYear: number | null;
}

export interface NetworkData {
  center: string;
  truncated: boolean;
  modularity: number;
  communityCount: number;
  nodes: NetworkNodeData[];
  edges: NetworkEdgeData[];
}

// The network comes as one graphology-format value: a field per node and tie would cost the
// server far more for networks of thousands of ties.
export const NETWORK = `
query Network($id: ID!, $depth: Int!, $maxNodes: Int!, $minJointPapers: Int!,
              $yearFrom: Int, $yearTo: Int, $maxAuthors: Int) {
  researcher(id: $id) {
    network(depth: $depth, maxNodes: $maxNodes, minJointPapers: $minJointPapers,
            yearFrom: $yearFrom, yearTo: $yearTo, maxAuthors: $maxAuthors) {
      graphology
    }
  }
}`;

export interface GraphologyNetwork {
  attributes: { center: string; truncated: boolean; modularity: number; communityCount: number };
  nodes: { key: string; attributes: Omit<NetworkNodeData, "id"> }[];
  edges: { source: string; target: string; attributes: Omit<NetworkEdgeData, "source" | "target"> }[];
}

/** The network's graphology serialisation as the page's own network data. */
export function fromGraphology(g: GraphologyNetwork): NetworkData {
  return {
    ...g.attributes,
    nodes: g.nodes.map((n) => ({ id: n.key, ...n.attributes })),
    edges: g.edges.map((e) => ({ source: e.source, target: e.target, ...e.attributes })),
  };
}

export interface PaperSummary {
  id: string;
  title: string;
  year: number | null;
  url: string | null;
  citationCount: number | null;
}

const PAPER_FIELDS = "id: key title year url citationCount";

export interface ResearcherPage {
  id: string;
  name: string;
  altNames: string[];
  orcid: string | null;
  paperCount: number;
  citationCount: number;
  hIndex: number | null;
  hIndexS2: number | null;
  hIndexOpenalex: number | null;
  identity: { externalIds: { key: string; methodDescription: string | null }[]; mergedFrom: string[] };
  authorPositions: {
    first: number;
    middle: number;
    last: number;
    solo: number;
    alphabetical: number;
    coverage: string;
  } | null;
  fields: { category: { code: string; name: string }; papers: number; primaryPapers: number }[];
  mostCited: { coverage: string; papers: PaperSummary[] } | null;
  papers: {
    totalCount: number;
    edges: { node: PaperSummary; authorship: { position: number; kind: string } | null }[];
  };
  affiliations: {
    edges: { node: { name: string; countryCode: string | null }; firstYear: number | null; lastYear: number | null }[];
  };
  sameName: {
    blockSize: number;
    records: {
      probability: number;
      rule: string | null;
      markedDistinct: boolean;
      researcher: { id: string; name: string; paperCount: number };
    }[];
  } | null;
}

export const RESEARCHER_PAGE = `
query ResearcherPage($id: ID!) {
  researcher(id: $id) {
    id: key name altNames orcid paperCount citationCount hIndex hIndexS2 hIndexOpenalex
    identity { externalIds { key methodDescription } mergedFrom }
    authorPositions { first middle last solo alphabetical coverage }
    fields { category { code name } papers primaryPapers }
    mostCited(first: 5) { coverage papers { ${PAPER_FIELDS} } }
    papers(first: 10) {
      totalCount
      edges { node { ${PAPER_FIELDS} } authorship { position kind } }
    }
    affiliations(first: 6) {
      edges { node { name countryCode } firstYear lastYear }
    }
    sameName(first: 20) {
      blockSize
      records { probability rule markedDistinct researcher { id: key name paperCount } }
    }
  }
}`;

export interface RecordProfile {
  id: string;
  name: string;
  orcid: string | null;
  paperCount: number;
  hIndex: number | null;
  fields: { category: { code: string }; papers: number }[];
  affiliations: { edges: { node: { name: string }; firstYear: number | null; lastYear: number | null }[] };
  papers: { edges: { node: PaperSummary }[] };
  coauthors: { edges: { node: { name: string }; jointPapers: number }[] };
}

export interface SameNameRecordData {
  probability: number;
  logOdds: number;
  rule: string | null;
  markedDistinct: boolean;
  evidence: { feature: string; value: number; weight: number; text: string }[];
  researcher: RecordProfile;
}

export interface SameNameData extends RecordProfile {
  sameName: { blockSize: number; records: SameNameRecordData[] } | null;
}

const PROFILE_FIELDS = `
  id: key name orcid paperCount hIndex
  fields { category { code } papers }
  affiliations(first: 3) { edges { node { name } firstYear lastYear } }
  papers(first: 3) { edges { node { ${PAPER_FIELDS} } } }
  coauthors(first: 3) { edges { node { name } jointPapers } }
`;

export const SAME_NAME = `
query SameName($id: ID!) {
  researcher(id: $id) {
    ${PROFILE_FIELDS}
    sameName(first: 12) {
      blockSize
      records {
        probability logOdds rule markedDistinct
        evidence { feature value weight text }
        researcher { ${PROFILE_FIELDS} }
      }
    }
  }
}`;

export interface PathResearcher {
  id: string;
  name: string;
  paperCount: number;
  citationCount: number;
}

export interface PathHopData {
  source: { id: string; name: string };
  target: { id: string; name: string };
  jointPapers: number;
  confidence: number;
  uncertain: boolean;
  papers: PaperSummary[];
}

export interface PathChain {
  length: number;
  weakestHop: number;
  totalJointPapers: number;
  uncertain: boolean;
  researchers: PathResearcher[];
  hops: PathHopData[];
}

export interface PathData {
  found: boolean;
  distance: number | null;
  message: string;
  chains: PathChain[];
}

export const PATH = `
query Path($from: ID!, $to: ID!, $k: Int!, $strongest: Boolean!, $yearFrom: Int, $yearTo: Int) {
  collaborationPath(from: $from, to: $to, maxLength: 6, k: $k, strongest: $strongest,
                    yearFrom: $yearFrom, yearTo: $yearTo) {
    found distance message
    chains {
      length weakestHop totalJointPapers uncertain
      researchers { id: key name paperCount citationCount }
      hops {
        source { id: key name } target { id: key name } jointPapers confidence uncertain
        papers { ${PAPER_FIELDS} }
      }
    }
  }
}`;
