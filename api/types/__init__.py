"""The GraphQL object types, one module per entity; resolvers stay thin and ask the loaders."""
