import { defineConfig, type DefaultTheme } from 'vitepress'
import { referencePages, apiPages } from '../scripts/pages.mjs'

// The site's pages: the guides are written here (src/guide, src/admin and their zh/ twins); the reference
// (src/reference) and the API (src/api) are generated at build time by scripts/prepare.mjs from docs/*.md and
// the OpenAPI document, under both locales.

function userGuide(prefix: string, zh: boolean): DefaultTheme.SidebarItem {
  return {
    text: zh ? '用户指南' : 'User guide',
    items: [
      { text: zh ? '提交作业' : 'Submit a job', link: `${prefix}guide/jobs` },
      { text: zh ? '打开笔记本' : 'Open a notebook', link: `${prefix}guide/notebooks` },
      { text: zh ? '网页终端' : 'Use the terminal', link: `${prefix}guide/terminal` },
      { text: zh ? '通过 SSH 连接作业' : 'Reach a job over SSH', link: `${prefix}guide/ssh` },
      { text: zh ? '管理文件' : 'Move files', link: `${prefix}guide/files` },
      { text: zh ? '命令行客户端' : 'Use the CLI', link: `${prefix}guide/cli` },
    ],
  }
}

function adminGuide(prefix: string, zh: boolean): DefaultTheme.SidebarItem {
  return {
    text: zh ? '管理员指南' : 'Admin guide',
    items: [
      { text: zh ? '安装' : 'Install', link: `${prefix}admin/install` },
      { text: zh ? '用户与账户' : 'Accounts', link: `${prefix}admin/accounts` },
      { text: zh ? '配额' : 'Quotas', link: `${prefix}admin/quotas` },
      { text: zh ? '价格' : 'Prices', link: `${prefix}admin/prices` },
      { text: zh ? '加速器' : 'Accelerators', link: `${prefix}admin/accelerators` },
      { text: zh ? '监控' : 'Monitoring', link: `${prefix}admin/monitoring` },
    ],
  }
}

function reference(prefix: string, zh: boolean): DefaultTheme.SidebarItem {
  return {
    text: zh ? '参考（英文）' : 'Reference',
    collapsed: false,
    items: referencePages().map((p) => ({ text: p.title, link: `${prefix}reference/${p.slug}` })),
  }
}

function api(prefix: string, zh: boolean): DefaultTheme.SidebarItem {
  return {
    text: zh ? 'API 参考（英文）' : 'API reference',
    collapsed: true,
    items: [
      { text: zh ? '概览' : 'Overview', link: `${prefix}api/` },
      ...apiPages().map((p) => ({ text: p.title, link: `${prefix}api/${p.slug}` })),
    ],
  }
}

function sidebar(prefix: string, zh: boolean): DefaultTheme.Sidebar {
  return [userGuide(prefix, zh), adminGuide(prefix, zh), reference(prefix, zh), api(prefix, zh)]
}

function nav(prefix: string, zh: boolean): DefaultTheme.NavItem[] {
  return [
    { text: zh ? '用户指南' : 'User guide', link: `${prefix}guide/jobs` },
    { text: zh ? '管理员指南' : 'Admin guide', link: `${prefix}admin/install` },
    { text: zh ? '参考' : 'Reference', link: `${prefix}reference/` },
    { text: 'API', link: `${prefix}api/` },
  ]
}

export default defineConfig({
  title: 'Crater',
  srcDir: 'src',
  outDir: 'dist',
  cacheDir: '.vitepress/cache',
  lastUpdated: false,
  // VitePress' own check for links between pages; scripts/check-links.mjs checks the built site's links and anchors.
  ignoreDeadLinks: false,
  locales: {
    root: {
      label: 'English',
      lang: 'en',
      description: 'Crater: a control plane for shared GPU clusters',
      themeConfig: { nav: nav('/', false), sidebar: sidebar('/', false) },
    },
    zh: {
      label: '简体中文',
      lang: 'zh-CN',
      description: 'Crater：共享 GPU 集群的控制平面',
      themeConfig: {
        nav: nav('/zh/', true),
        sidebar: sidebar('/zh/', true),
        outline: { label: '本页内容' },
        docFooter: { prev: '上一页', next: '下一页' },
        returnToTopLabel: '回到顶部',
        sidebarMenuLabel: '菜单',
        darkModeSwitchLabel: '外观',
        langMenuLabel: '切换语言',
        notFound: { title: '页面不存在', quote: '', linkLabel: '返回首页', linkText: '返回首页' },
      },
    },
  },
  themeConfig: {
    outline: { level: [2, 3] },
    search: {
      provider: 'local',
      options: {
        locales: {
          zh: {
            translations: {
              button: { buttonText: '搜索', buttonAriaLabel: '搜索' },
              modal: {
                displayDetails: '显示详细列表',
                resetButtonTitle: '清除查询',
                backButtonTitle: '关闭搜索',
                noResultsText: '没有结果',
                footer: { selectText: '选择', navigateText: '切换', closeText: '关闭' },
              },
            },
          },
        },
      },
    },
  },
})
