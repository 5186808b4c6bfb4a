/** MUI components that navigate with the router (typed `to`, preloading, aria-current on the active link). */
import {
  Button,
  type ButtonProps,
  ListItemButton,
  type ListItemButtonProps,
  Link as MuiLink,
  type LinkProps as MuiLinkProps,
} from '@mui/material';
import { createLink } from '@tanstack/react-router';
import type { Ref } from 'react';

function ListItemButtonAnchor(props: ListItemButtonProps<'a'> & { ref?: Ref<HTMLAnchorElement> }) {
  return <ListItemButton component="a" {...props} />;
}

function ButtonAnchor(props: ButtonProps<'a'> & { ref?: Ref<HTMLAnchorElement> }) {
  return <Button component="a" {...props} />;
}

function MuiLinkAnchor(props: MuiLinkProps & { ref?: Ref<HTMLAnchorElement> }) {
  return <MuiLink {...props} />;
}

export const ListItemLink = createLink(ListItemButtonAnchor);
export const ButtonLink = createLink(ButtonAnchor);
export const TextLink = createLink(MuiLinkAnchor);
